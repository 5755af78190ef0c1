import { describe, expect, it } from 'vitest';
import { chooseLogFormat, redactSql } from '../src/logger.js';

/** Which log format the server process writes: readable at a terminal, JSON lines anywhere else. */
describe('chooseLogFormat', () => {
  it.each([
    { case: 'a terminal', setting: 'auto', isTTY: true, env: {}, format: 'pretty' },
    { case: 'a file, pipe or process manager', setting: 'auto', isTTY: undefined, env: {}, format: 'json' },
    { case: 'not a terminal', setting: 'auto', isTTY: false, env: {}, format: 'json' },
    {
      case: 'npm run dev at a terminal (FORCE_COLOR)',
      setting: 'auto',
      isTTY: false,
      env: { FORCE_COLOR: '2' },
      format: 'pretty',
    },
    { case: 'FORCE_COLOR empty', setting: 'auto', isTTY: false, env: { FORCE_COLOR: '' }, format: 'pretty' },
    { case: 'FORCE_COLOR=0', setting: 'auto', isTTY: false, env: { FORCE_COLOR: '0' }, format: 'json' },
    {
      case: 'FORCE_COLOR=false',
      setting: 'auto',
      isTTY: false,
      env: { FORCE_COLOR: 'false' },
      format: 'json',
    },
    { case: 'LOG_FORMAT=json at a terminal', setting: 'json', isTTY: true, env: {}, format: 'json' },
    { case: 'LOG_FORMAT=pretty into a file', setting: 'pretty', isTTY: false, env: {}, format: 'pretty' },
  ] as const)('$case: $format', ({ setting, isTTY, env, format }) => {
    expect(chooseLogFormat(setting, { isTTY }, env)).toBe(format);
  });
});

describe('redactSql: links and tokens never reach the SQL log', () => {
  it.each([
    [
      `SELECT * FROM "file_imports" WHERE "file_imports"."source_link" = 'https://dl.dropboxusercontent.com/1/view/abc/reel.mov' LIMIT 1;`,
      `SELECT * FROM "file_imports" WHERE "file_imports"."source_link" = '[redacted]' LIMIT 1;`,
    ],
    [
      `UPDATE file_imports SET access_token = 'v1.sealed''x', lease_token = 'abc' WHERE file_id = 'f1'`,
      `UPDATE file_imports SET access_token = '[redacted]', lease_token = '[redacted]' WHERE file_id = 'f1'`,
    ],
    [`INSERT INTO x VALUES ('http://example.com/a?b=1')`, `INSERT INTO x VALUES ('[redacted]')`],
    [`SELECT 1 WHERE name = 'reel.mov'`, `SELECT 1 WHERE name = 'reel.mov'`],
  ])('%s', (sql, logged) => {
    expect(redactSql(sql)).toBe(logged);
  });
});
