/** `status`: who is signed in, the bandwidth schedule, the queue and the last sent submissions. */
import { formatBytes } from '@avp/shared';
import { UploadEngine } from '../../engine/engine.js';
import type { EngineSnapshot } from '../../engine/engine.js';
import { describeWindow } from '../../engine/schedule.js';
import { JsonFileStore } from '../../engine/state.js';
import { readCredentials, stateFile } from '../config.js';
import { EXIT } from '../errors.js';
import { defaultServer } from '../session.js';
import type { Command } from './command.js';

export const status: Command = async ({ home, o }) => {
  const credentials = readCredentials(home);
  // Read only: no token, and the engine is never started.
  const snap: EngineSnapshot = new UploadEngine({
    baseUrl: credentials?.server ?? defaultServer(),
    store: new JsonFileStore(stateFile(home)),
    token: () => null,
  }).snapshot();
  if (o.json) {
    o.event({
      event: 'status',
      signedIn: credentials
        ? { server: credentials.server, email: credentials.email, expiresAt: credentials.expiresAt }
        : null,
      settings: snap.settings,
      jobs: snap.jobs.map((j) => ({
        submissionId: j.submissionId,
        formType: j.formType,
        state: j.state,
        error: j.error,
        files: j.files.map((f) => ({
          name: f.name,
          size: f.size,
          state: f.state,
          error: f.error,
          ...(f.cloud ? { from: f.path, cloud: f.cloud, bytesDone: f.progress.sentBytes } : {}),
        })),
      })),
      history: snap.history,
    });
    return EXIT.ok;
  }
  o.out(credentials ? `Signed in to ${credentials.server} as ${credentials.email}.` : 'Not signed in.');
  for (const window of snap.settings.schedule ?? []) o.out(`Bandwidth schedule: ${describeWindow(window)}`);
  if (snap.jobs.length === 0) o.out('Queue: empty.');
  for (const job of snap.jobs) {
    o.out(`Queue: ${job.formType} submission ${job.submissionId} (${job.state})`);
    for (const f of job.files) {
      const from = f.cloud
        ? `  from ${f.path} (server import ${f.cloud.status ?? 'not started'}, ${formatBytes(f.progress.sentBytes)} copied)`
        : '';
      o.out(
        `  ${f.state.padEnd(9)} ${f.name}  ${formatBytes(f.size)}${from}${f.error ? `  ${f.error.message}` : ''}`,
      );
    }
  }
  for (const entry of snap.history.slice(0, 10)) {
    o.out(`Sent ${entry.submittedAt}: ${entry.formType} submission ${entry.submissionId}`);
    for (const f of entry.files) o.out(`  ${f.name}  ${formatBytes(f.size)}  sha-256 ${f.sha256}`);
  }
  return EXIT.ok;
};
