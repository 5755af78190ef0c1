import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DailyLog } from '../src/engine/index.js';
import { tempDir } from './helpers/api.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the daily log file', () => {
  it('writes one JSON line per event into the day’s file, and keeps the last 14 days', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const dir = path.join(work.dir, 'logs');
    await mkdir(dir);
    await writeFile(path.join(dir, 'av-uploader-2026-11-01.log'), 'old\n');
    await writeFile(path.join(dir, 'av-uploader-2026-11-12.log'), 'kept\n');
    await writeFile(path.join(dir, 'notes.txt'), 'not ours\n');
    let now = new Date(2026, 10, 24, 9, 30);
    const log = new DailyLog(dir, () => now);
    log.write('info', 'upload sent', { submissionId: 's1', files: 2 });
    log.write('error', 'upload stopped', { message: 'The file changed' });
    now = new Date(2026, 10, 25, 0, 5);
    log.write('info', 'signed in', { email: 'ada@example.com' });
    expect((await readdir(dir)).sort()).toEqual([
      'av-uploader-2026-11-12.log',
      'av-uploader-2026-11-24.log',
      'av-uploader-2026-11-25.log',
      'notes.txt',
    ]);
    const lines = (await readFile(log.path(new Date(2026, 10, 24)), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'upload sent', submissionId: 's1', files: 2 }),
      expect.objectContaining({ level: 'error', msg: 'upload stopped', message: 'The file changed' }),
    ]);
    expect(log.path()).toBe(path.join(dir, 'av-uploader-2026-11-25.log'));
  });

  it('never throws when the folder cannot be written', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const file = path.join(work.dir, 'a-file');
    await writeFile(file, '');
    const log = new DailyLog(path.join(file, 'logs'));
    expect(() => log.write('info', 'x')).not.toThrow();
  });
});
