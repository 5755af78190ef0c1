/**
 * `status`: who is signed in, whether the queue waits for the server, the saved settings, the queue and
 * the last sent submissions with each file's review state. It changes nothing; its only call to the server
 * is GET /api/uploads/mine for the review states (issue #31), made when signed in with submissions sent, and
 * a failure of it is one line, never a failed status (a running av-upload leaves what it knows of the server
 * in connection.json, live-state.ts).
 */
import { formatBytes } from '@avp/shared';
import { UploadEngine } from '../../engine/engine.js';
import { fetchReviews, reviewWords } from '../../engine/reviews.js';
import type { ReviewsResult } from '../../engine/reviews.js';
import { timeoutsFromEnv } from '../../engine/timeouts.js';
import type { EngineSnapshot } from '../../engine/engine.js';
import { JsonFileStore } from '../../engine/state.js';
import { readCredentials, stateFile } from '../config.js';
import { EXIT } from '../errors.js';
import { readLiveState } from '../live-state.js';
import type { LiveState } from '../live-state.js';
import { describeSettings } from '../run-settings.js';
import { defaultServer } from '../session.js';
import type { Command } from './command.js';

export const status: Command = async ({ home, o }) => {
  const credentials = readCredentials(home);
  // Read only: no token, and the engine is never started.
  const engine = new UploadEngine({
    baseUrl: credentials?.server ?? defaultServer(),
    store: new JsonFileStore(stateFile(home)),
    token: () => null,
  });
  const snap: EngineSnapshot = engine.snapshot();
  await engine.stop();
  const queuedFiles = snap.jobs
    .flatMap((j) => j.files)
    .filter((f) => f.state !== 'complete' && !(f.state === 'failed' && !waitsForServer(f.error))).length;
  const live = readLiveState(home);
  const server = serverLine(live, queuedFiles, snap);
  const reviews = await reviewsFor(credentials, snap);
  const reviewOf = (submissionId: string, name: string) =>
    reviews?.ok ? (reviews.reviews[submissionId]?.[name] ?? null) : null;
  if (o.json) {
    o.event({
      event: 'status',
      signedIn: credentials
        ? { server: credentials.server, email: credentials.email, expiresAt: credentials.expiresAt }
        : null,
      settings: snap.settings,
      connection: live
        ? { ...live.connection, running: live.running, command: live.command, at: live.at }
        : null,
      queuedFiles,
      ...(server ? { message: server } : {}),
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
      history: snap.history.map((entry) => ({
        ...entry,
        files: entry.files.map((f) => {
          const review = reviewOf(entry.submissionId, f.name);
          return review ? { ...f, review: { ...review, words: reviewWords(review) } } : f;
        }),
      })),
      ...(reviews && !reviews.ok ? { reviewsError: reviewsFailed(reviews.error) } : {}),
    });
    return EXIT.ok;
  }
  o.out(credentials ? `Signed in to ${credentials.server} as ${credentials.email}.` : 'Not signed in.');
  if (server) o.out(server);
  o.out('Settings (`av-upload settings` changes them):');
  for (const line of describeSettings(snap.settings)) o.out(`  ${line}`);
  if (snap.jobs.length === 0) o.out('Queue: empty.');
  for (const job of snap.jobs) {
    o.out(
      `Queue: ${job.formType} submission ${job.submissionId ?? '(not registered with the server yet)'} (${
        waitsForServer(job.error) ? 'waiting for the server: `av-upload resume`' : job.state
      })`,
    );
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
    for (const f of entry.files) {
      const review = reviewOf(entry.submissionId, f.name);
      o.out(
        `  ${f.name}  ${formatBytes(f.size)}  sha-256 ${f.sha256}${review ? `  ${reviewWords(review)}` : ''}`,
      );
    }
  }
  if (reviews && !reviews.ok) o.out(reviewsFailed(reviews.error));
  return EXIT.ok;
};

const reviewsFailed = (why: string) => `Review states could not be fetched: ${why}`;

/** The sent files' review states, when there is a sign-in and something sent to ask about; else null. */
async function reviewsFor(
  credentials: ReturnType<typeof readCredentials>,
  snap: EngineSnapshot,
): Promise<ReviewsResult | null> {
  if (!credentials || snap.history.length === 0) return null;
  let responseMs: number;
  try {
    responseMs = timeoutsFromEnv().responseMs;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  return fetchReviews(credentials.server, credentials.token, responseMs);
}

/** A file stopped only because the server did not answer: still queued, as far as a person is concerned. */
function waitsForServer(error: { code: string } | null): boolean {
  return error?.code === 'unreachable' || error?.code === 'server_error';
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/**
 * "Waiting for the server — 3 files queued, next try in 12 s" while an av-upload waits for it; what the
 * last one found when none runs now and files are left; nothing when all is well.
 */
function serverLine(live: (LiveState & { running: boolean }) | null, queued: number, snap: EngineSnapshot) {
  const c = live?.connection;
  if (live?.running && c?.state === 'waiting') {
    const next =
      c.nextTryAt > 0
        ? `next try in ${Math.max(1, Math.ceil((c.nextTryAt - Date.now()) / 1000))} s`
        : 'not trying any more';
    return `Waiting for the server — ${files(c.queuedFiles || queued)} queued, ${next} (\`av-upload ${live.command}\`, process ${live.pid}).\n  ${c.message}`;
  }
  if (queued === 0 || snap.jobs.length === 0) return null;
  if (live?.running) return `Sending: \`av-upload ${live.command}\` is running (process ${live.pid}).`;
  if (c?.state === 'waiting')
    return `Waiting for the server — ${files(queued)} queued, nothing is trying now: the last try found: ${c.message}\n  Run \`av-upload resume\` to send them once the server answers.`;
  return `${files(queued)} queued, nothing is sending them now: run \`av-upload resume\`.`;
}
