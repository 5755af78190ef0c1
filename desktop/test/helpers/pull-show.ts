/**
 * A show to pull (issue #31) on a real API server: a staff account made with the admin command, a client's
 * sponsor submissions sent over the upload protocol, and bearer tokens for both.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { partSizeFor } from '@avp/shared';
import { API_DIR, PASSWORD } from './api.js';
import type { ApiProcess } from './api.js';

export const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function login(api: ApiProcess, email: string): Promise<string> {
  const res = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, token: true }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return body.token;
}

export async function call<T>(
  api: ApiProcess,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${api.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A sent sponsor submission of these files for `event`; answers the submission's and the files' ids. */
export async function send(
  api: ApiProcess,
  token: string,
  event: string,
  company: string,
  files: { name: string; bytes: Buffer }[],
): Promise<{ submissionId: string; ids: string[] }> {
  const { submission } = await call<{ submission: { id: string } }>(
    api,
    token,
    'POST',
    '/api/uploads/submissions',
    { form_type: 'sponsor', event_name: event, sponsor_company: company },
  );
  const ids: string[] = [];
  for (const f of files) {
    const { file } = await call<{ file: { id: string } }>(
      api,
      token,
      'POST',
      `/api/uploads/submissions/${submission.id}/files`,
      {
        name: f.name,
        size: f.bytes.length,
        type: 'video/mp4',
        lastModified: 1_700_000_000_000,
        sha256: sha(f.bytes),
      },
    );
    const partSize = partSizeFor(f.bytes.length);
    for (let n = 0; n * partSize < f.bytes.length; n += 1) {
      const res = await fetch(`${api.url}/api/uploads/files/${file.id}/parts/${n + 1}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: f.bytes.subarray(n * partSize, (n + 1) * partSize),
      });
      if (!res.ok) throw new Error(`part answered ${res.status}`);
    }
    await call(api, token, 'POST', `/api/uploads/files/${file.id}/complete`, { sha256: sha(f.bytes) });
    ids.push(file.id);
  }
  await call(api, token, 'POST', `/api/uploads/submissions/${submission.id}/submit`, { files: ids });
  return { submissionId: submission.id, ids };
}

/** `admin create` in the API's folder, as the README says (an owner: every staff role). */
export async function createStaff(api: ApiProcess, email: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      // api/dist, built by the global setup: through tsx a start costs about twice the CPU.
      path.join('dist', 'cli', 'admin.js'),
      'create',
      '--email',
      email,
      '--first',
      'Eve',
      '--last',
      'Staff',
    ],
    {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: api.dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stdin.end(PASSWORD);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`admin create failed (${code}): ${output}`);
}
