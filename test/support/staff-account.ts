import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './server-process';

export const STAFF_PASSWORD = 'Staff passphrase 9';

/** A staff account in the e2e server's own database, made with the admin command as the README says. */
export function createStaff(email: string, lastName = 'Staffer'): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the Playwright global setup did not run.');
  execFileSync(
    process.execPath,
    [
      join(root, 'api', 'dist', 'cli', 'admin.js'),
      'create',
      '--email',
      email,
      '--password',
      STAFF_PASSWORD,
      '--first',
      'Ada',
      '--last',
      lastName,
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    },
  );
}
