import { randomUUID } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Proves a folder can take new files: creates it if needed, then writes and deletes a probe file. A full
 * disk, a read-only mount or a path blocked by a regular file all fail here rather than mid-upload.
 */
export async function assertWritable(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const probe = path.join(dir, `.write-probe-${randomUUID()}`);
  await writeFile(probe, 'ok');
  await unlink(probe);
}
