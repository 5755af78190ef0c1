import { spawn } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import pg from 'pg';
import { MIGRATIONS_TABLE } from '../db/index.js';
import { partialName } from './backup-sqlite.js';

/**
 * PostgreSQL backups (issue 35 item 3) are pg_dump's custom format, restored by pg_restore. pg_dump reads
 * everything in one transaction on one snapshot (REPEATABLE READ), so the copy is a single moment of a
 * database that keeps taking writes: a paid order and its lines, a file row and its submission, are
 * both in it or both not. The password travels in PGPASSWORD, never on a command line others can read.
 */

export interface PgTarget {
  url: string;
  schema: string | undefined;
}

export class ToolMissingError extends Error {
  constructor(tool: string) {
    super(
      `${tool} was not found on PATH. Install the PostgreSQL client tools of the server's major version ` +
        `or newer (Debian/Ubuntu: apt-get install postgresql-client) and run this again.`,
    );
    this.name = 'ToolMissingError';
  }
}

/** The URL without its password, and the environment that carries the password instead. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password !== '') env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new ToolMissingError(tool) : error),
    );
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

function failed(tool: string, result: Run): Error {
  const detail = result.stderr.trim().split('\n').slice(-5).join('\n');
  return new Error(`${tool} failed (exit ${result.code}): ${detail}`);
}

/** The pg_dump arguments for `target` into `file`: exported so the README's recipe and the code agree. */
export function pgDumpArgs(target: PgTarget, file: string): string[] {
  return [
    '--format=custom',
    // Objects are created by whoever restores, so a backup restores on a server with other role names.
    '--no-owner',
    '--no-privileges',
    ...(target.schema === undefined ? [] : [`--schema=${target.schema}`]),
    `--file=${file}`,
    `--dbname=${connection(target.url).dbname}`,
  ];
}

/** Dumps `target` into `file` (which must not exist yet: the caller checks). */
export async function backupPostgres(target: PgTarget, file: string): Promise<void> {
  const partial = partialName(file);
  try {
    const result = await run('pg_dump', pgDumpArgs(target, partial), connection(target.url).env);
    if (result.code !== 0) throw failed('pg_dump', result);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
}

/** The schemas a custom-format dump creates (from its table of contents). */
export async function dumpSchemas(file: string): Promise<string[]> {
  const result = await run('pg_restore', ['--list', file], process.env);
  if (result.code !== 0) throw failed('pg_restore', result);
  const schemas = new Set<string>();
  for (const line of result.stdout.split('\n')) {
    // "215; 2615 16385 SCHEMA - test_abc postgres" (owner last, or absent with --no-owner)
    const match = /^\d+; \d+ \d+ SCHEMA - (\S+)/.exec(line);
    if (match) schemas.add(match[1]!);
  }
  return [...schemas];
}

/** The migration names the dump's meta table records, read without restoring anything. */
export async function dumpMigrations(file: string): Promise<string[]> {
  const result = await run(
    'pg_restore',
    ['--data-only', `--table=${MIGRATIONS_TABLE}`, '--file=-', file],
    process.env,
  );
  if (result.code !== 0) throw failed('pg_restore', result);
  const names: string[] = [];
  let copying = false;
  for (const line of result.stdout.split('\n')) {
    if (!copying) {
      copying = /^COPY \S*sequelize_meta \(name\) FROM stdin;$/.test(line);
    } else if (line === '\\.') {
      copying = false;
    } else {
      names.push(line);
    }
  }
  return names.sort();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The tables in the target schema (public when none is set): a restore needs it empty. */
export async function targetTables(target: PgTarget): Promise<string[]> {
  return withClient(target.url, async (client) => {
    const result = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [target.schema ?? 'public'],
    );
    return result.rows.map((row) => row.table_name);
  });
}

/**
 * Restores a dump into `target`, whose schema must be empty unless `force`, which drops what is there
 * first. A dump of one schema comes back under that schema's name; pg_restore stops at the first error
 * (in one transaction), so a failed restore leaves nothing half done.
 */
export async function restorePostgres(target: PgTarget, file: string, force: boolean): Promise<void> {
  const schema = target.schema ?? 'public';
  await withClient(target.url, async (client) => {
    if (force) {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      if (target.schema === undefined) await client.query('CREATE SCHEMA public');
    } else if (target.schema !== undefined) {
      // An empty schema of that name (a server started once and stopped) would make CREATE SCHEMA fail.
      await client.query(`DROP SCHEMA IF EXISTS "${schema}"`);
    }
  });
  const { dbname, env } = connection(target.url);
  const result = await run(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
    env,
  );
  if (result.code !== 0) throw failed('pg_restore', result);
}

/** Rows per table of the target schema. */
export async function postgresTableCounts(target: PgTarget): Promise<Record<string, number>> {
  const tables = await targetTables(target);
  return withClient(target.url, async (client) => {
    const schema = target.schema ?? 'public';
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const result = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${schema}"."${table}"`);
      counts[table] = Number(result.rows[0]?.n ?? 0);
    }
    return counts;
  });
}

/**
 * Rows whose foreign keys point nowhere, one query per foreign key of the schema: a restore loads data
 * before it adds the constraints, so this proves the dump's rows agree, not merely that it loaded.
 */
export async function postgresForeignKeyProblems(target: PgTarget): Promise<string[]> {
  const schema = target.schema ?? 'public';
  return withClient(target.url, async (client) => {
    const fks = await client.query<{ child: string; parent: string; cols: string[]; refs: string[] }>(
      `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
              array(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS cols,
              array(SELECT attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS refs
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'f' AND n.nspname = $1`,
      [schema],
    );
    const problems: string[] = [];
    await client.query(`SET search_path TO "${schema}"`);
    for (const fk of fks.rows) {
      const join = fk.cols.map((col, i) => `p."${fk.refs[i]}" = c."${col}"`).join(' AND ');
      const present = fk.cols.map((col) => `c."${col}" IS NOT NULL`).join(' AND ');
      const result = await client.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM ${fk.child} c WHERE ${present}
           AND NOT EXISTS (SELECT 1 FROM ${fk.parent} p WHERE ${join})`,
      );
      const n = Number(result.rows[0]?.n ?? 0);
      if (n > 0) problems.push(`${fk.child} (${fk.cols.join(', ')}) → ${fk.parent}: ${n} row(s)`);
    }
    return problems;
  });
}
