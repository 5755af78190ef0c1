import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from './helpers/env.js';

/**
 * The soak (`npm run soak`, test/soak/soak.mjs) for one minute: two API processes on PostgreSQL and S3 under
 * uploads, checkouts, cloud imports and staff reads, with faults injected (kill -9, PostgreSQL cut, S3
 * errors, link faults, a provider stall). It must end by itself, print its tables, and exit 0: every
 * invariant held (uploads intact, orders paid once with one mail, no import stuck, each mail sent once).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECONDS = 60;
const DRAIN_SECONDS = 30;

if (!TEST_DATABASE_URL) {
  console.warn(
    'api/test/soak.test.ts skipped: TEST_DATABASE_URL is not set, and the soak runs two API processes ' +
      'on one PostgreSQL database (and cuts their connections to it).',
  );
}

let running: ChildProcess | undefined;

function runSoak(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', path.join('test', 'soak', 'soak.mjs')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SOAK_SECONDS: String(SECONDS),
          SOAK_DRAIN_SECONDS: String(DRAIN_SECONDS),
          TEST_DATABASE_URL,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    running = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe.runIf(TEST_DATABASE_URL)('the one-minute soak', () => {
  // A soak cut off by the test's timeout is stopped the way Ctrl-C stops it: it cleans up (processes, schema).
  afterAll(() => {
    if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGTERM');
  });

  it(
    'ends by itself with its tables printed and every invariant held',
    { timeout: (SECONDS + DRAIN_SECONDS + 240) * 1000 },
    async () => {
      const { code, output } = await runSoak();
      // On failure the soak's own report (printed once, here) says which invariant broke, with its evidence.
      if (code !== 0) console.error(output);
      const printed = (text: string) => output.includes(text);
      expect(printed('Faults (recovery'), 'the faults table').toBe(true);
      expect(printed('Traffic'), 'the traffic table').toBe(true);
      expect(printed('Invariants'), 'the invariants table').toBe(true);
      expect(/fault over: /.test(output), 'at least one fault injected and over').toBe(true);
      // What broke, in the assertion itself: a CI log's excerpt shows the end of the run, not the report.
      const broken = output
        .split('\n')
        .filter((line) => /^BROKEN: |^ {2}- |^The soak did not run/.test(line))
        .join('\n')
        .slice(0, 4000);
      expect(printed('Every invariant held.'), `every invariant held; the soak said:\n${broken}`).toBe(true);
      expect(code, broken).toBe(0);
    },
  );
});
