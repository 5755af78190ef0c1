import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { UPLOAD_STORAGE_FULL } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { localUploadsDir } from '../src/adapters/storage/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { Exhibitor, seeded } from './helpers/store.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * Issue 28: the upload disk fills up (ENOSPC) on a real small filesystem, an 8 MiB tmpfs mounted on
 * DATA_DIR/uploads (the database stays on its own disk, as uploads usually have a volume of their own).
 * A part that does not fit answers 507 with Retry-After and a message in words, nothing is recorded, the
 * store and sign-in still answer, and the same part goes through once space is freed.
 */

const run = promisify(execFile);
const MIB = 1024 * 1024;

let t: TestApp | undefined;
let mounted: string | undefined;
afterEach(async () => {
  if (mounted) await run('umount', ['-l', mounted]).catch(() => undefined);
  mounted = undefined;
  await t?.close();
  t = undefined;
});

/** Mounts an 8 MiB tmpfs on `dir`, or says why it cannot (not root, no mount, a container without the right). */
async function mountSmallDisk(dir: string): Promise<string | null> {
  await mkdir(dir, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
    mounted = dir;
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return stderr || (error instanceof Error ? error.message : String(error));
  }
}

describe.each(DIALECTS)('the upload disk is full (%s)', (dialect) => {
  it('507 with Retry-After, nothing recorded, store and sign-in answer, and the part goes through once space is freed', async (ctx) => {
    const logs = new LogCapture();
    t = await startTestApp({ dialect, logs });
    const app = t;
    const uploads = localUploadsDir(app.config);
    const refused = await mountSmallDisk(uploads);
    if (refused !== null) {
      console.log(`skipped: cannot mount a small tmpfs for the disk-full test (${refused})`);
      ctx.skip();
      return;
    }
    await seeded(app);
    const ada = new TestBrowser(app.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const created = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
    const data = randomBytes(3 * MIB);
    const registered = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${created.body.submission.id}/files`,
      { name: 'clip.mov', size: data.length, type: 'video/quicktime', lastModified: 1_700_000_000_000 },
    );
    expect(registered.status).toBe(201);
    const fileId = registered.body.file.id;

    // Fill the disk but for 1 MiB: the 3 MiB part cannot fit.
    const filler = path.join(uploads, 'filler.bin');
    await writeFile(filler, Buffer.alloc(7 * MIB));

    const put = () =>
      fetch(`${app.url}/api/uploads/files/${fileId}/parts/1`, {
        method: 'PUT',
        headers: {
          cookie: ada.cookieHeader() ?? '',
          origin: app.url,
          'content-type': 'application/octet-stream',
        },
        body: data,
      });
    const full = await put();
    expect(full.status).toBe(507);
    expect(full.headers.get('retry-after')).toBe('60');
    expect(await full.json()).toEqual({
      error: {
        code: 'storage_full',
        message: UPLOAD_STORAGE_FULL,
        requestId: full.headers.get('x-request-id'),
      },
    });
    const staffLine = logs.lines.find((line) =>
      String(line.msg).startsWith('upload storage is full (ENOSPC'),
    );
    expect(staffLine).toBeDefined();
    const after = await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}`);
    expect(after.body.file.receivedParts).toEqual([]);

    // Everything that does not write to the upload disk carries on.
    const exhibitor = new Exhibitor(app);
    expect((await exhibitor.store()).status).toBe(200);
    const again = new TestBrowser(app.url);
    const signIn = await again.post('/api/auth/login', {
      email: registration().email,
      password: registration().password,
    });
    expect(signIn.status).toBe(200);

    // Space is freed: the same part is taken and the file completes with its sha-256.
    await rm(filler);
    const retried = await put();
    expect(retried.status).toBe(200);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const completed = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {
      sha256,
    });
    expect(completed.status).toBe(200);
    expect(completed.body.file.sha256).toBe(sha256);
  }, 30_000);
});
