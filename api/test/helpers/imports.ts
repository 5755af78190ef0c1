import { createHash } from 'node:crypto';
import type { UploadFileInfo } from '@avp/shared';
import type { Env } from '../../src/config.js';
import { startImportWorker } from '../../src/modules/imports/index.js';
import type { ImportWorker } from '../../src/modules/imports/index.js';
import type { RunningHashes } from '../../src/modules/uploads/running-hash.js';
import { startTestApp } from './app.js';
import type { TestApp } from './app.js';
import { registration, TestBrowser } from './browser.js';
import type { LogCapture, TestDialect } from './env.js';
import { sponsorForm } from './uploads.js';

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface ImportHarness {
  t: TestApp;
  worker: ImportWorker;
  client: TestBrowser;
  submissionId: string;
  /** POSTs a cloud import into the harness's submission. */
  start(body: Record<string, unknown>): Promise<{ status: number; file: UploadFileInfo; body: unknown }>;
  /** Polls the file (as the portal does) until `done` holds; throws after `timeoutMs`. */
  waitFor(
    fileId: string,
    done: (file: UploadFileInfo) => boolean,
    timeoutMs?: number,
  ): Promise<UploadFileInfo>;
  /** The bytes stored for a complete file, read through the storage driver. */
  stored(fileId: string): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The real app and an import worker on a fresh database, with a signed-in client and an open sponsor
 * submission: the way the portal starts imports and watches them.
 */
export async function startImportHarness(
  options: {
    dialect?: TestDialect;
    env?: Env;
    pollMs?: number;
    logs?: LogCapture;
    retryBaseMs?: number;
    hashes?: RunningHashes;
  } = {},
): Promise<ImportHarness> {
  const t = await startTestApp({
    dialect: options.dialect ?? 'sqlite',
    env: options.env,
    logs: options.logs,
  });
  const worker = startImportWorker({
    config: t.config,
    db: t.db,
    logger: t.logger,
    pollMs: options.pollMs ?? 50,
    ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
    ...(options.hashes === undefined ? {} : { hashes: options.hashes }),
  });
  const client = new TestBrowser(t.url);
  const registered = await client.post('/api/auth/register', registration());
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const created = await client.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
  const submissionId = created.body.submission.id;
  return {
    t,
    worker,
    client,
    submissionId,
    async start(body) {
      const res = await client.post<{ file: UploadFileInfo }>(
        `/api/uploads/submissions/${submissionId}/imports`,
        body,
      );
      return { status: res.status, file: res.body.file, body: res.body };
    },
    async waitFor(fileId, done, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const res = await client.get<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}`);
        if (res.status === 200 && done(res.body.file)) return res.body.file;
        if (Date.now() > until) {
          throw new Error(`file ${fileId} did not reach the state in time: ${JSON.stringify(res.body)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stored(fileId) {
      const row = await t.db.models.SubmissionFile.findByPk(fileId);
      const { createUploadStorage } = await import('../../src/adapters/storage/index.js');
      const chunks: Buffer[] = [];
      for await (const chunk of await createUploadStorage(t.config).read(row!.storageKey)) {
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    async close() {
      await worker.stop();
      await t.close();
    },
  };
}
