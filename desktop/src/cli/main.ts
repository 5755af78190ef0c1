/**
 * av-upload: the upload engine from a terminal (issue 9).
 *
 *   av-upload login --email ada@example.com [--server URL] [--password-stdin]
 *   av-upload upload --form sponsor --event-name "Expo 2027" --sponsor-company "Acme AV" FILE…
 *   av-upload upload --form creative --project-name "Spring reel" FILE…
 *   av-upload upload --form event --event-name … --date 2027-03-01 --hour 9 --minute 30 --ampm AM --speaker-name … FILE…
 *   av-upload resume          continue the persisted queue (paused and failed files too)
 *   av-upload status          the queue and the history
 *   av-upload logout          revoke the token on the server and forget it
 *   av-upload watch add FOLDER --form … [fields]   send each new file in FOLDER once it stops growing
 *   av-upload watch [list|remove ID]               run the watch folders (until Ctrl-C), list, remove
 *   --schedule 'Mon-Fri 09:00-18:00 2MB'           a bandwidth limit for those hours (repeatable)
 *   av-upload accounts connect|list|disconnect PROVIDER   cloud accounts (drive, dropbox, box, onedrive)
 *   av-upload upload --from dropbox:/Events/keynote.mov --from drive:FILE_ID … [FILE…]   the server imports them
 *
 * Progress is a line redrawn on a terminal, JSON lines otherwise (or with --json). Exit codes: EXIT.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { UploadError } from '@avp/shared';
import type { UploadFileRef } from '@avp/shared';
import { AuthClient, AuthError } from '../engine/auth.js';
import { expandPaths, UploadEngine } from '../engine/engine.js';
import type { EngineEvent, EngineSnapshot } from '../engine/engine.js';
import type { EngineSettings } from '../engine/state.js';
import { checkUploadForm } from '../engine/forms.js';
import { describeWindow, parseWindow } from '../engine/schedule.js';
import { JsonFileStore } from '../engine/state.js';
import { FolderWatcher } from '../engine/watch.js';
import {
  CloudAccountError,
  CloudAccounts,
  cloudSettings,
  fileKeyCipher,
  JsonFileAccountStore,
  parseProvider,
  PROVIDER_NAMES,
} from '../engine/cloud/index.js';
import type { CloudItem } from '../engine/cloud/index.js';
import { openInBrowser } from './browser.js';
import {
  accountsFile,
  accountsKeyFile,
  deleteCredentials,
  homeDir,
  readCredentials,
  stateFile,
  writeCredentials,
} from './config.js';
import type { Credentials } from './config.js';
import { bytes, duration, parseRate } from './format.js';

/** Documented in desktop/README.md. */
export const EXIT = {
  ok: 0,
  /** An unexpected error (a bug, a disk error). */
  error: 1,
  /** Bad command line or form fields (the spec's messages are printed). */
  usage: 2,
  /** Not signed in, wrong credentials, or the session ended: run `av-upload login`. */
  auth: 3,
  /** A file or the submission failed on the server after retries; `av-upload resume` tries again. */
  uploadFailed: 4,
  /** A file changed on disk after it was queued; it was stopped. */
  fileChanged: 5,
  /** The server could not be reached. */
  network: 6,
  /** Interrupted (Ctrl-C); the queue is saved: `av-upload resume`. */
  interrupted: 130,
} as const;

class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  server: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  form: { type: 'string' },
  'project-name': { type: 'string' },
  'event-name': { type: 'string' },
  'sponsor-company': { type: 'string' },
  'speaker-name': { type: 'string' },
  'room-no': { type: 'string' },
  description: { type: 'string' },
  date: { type: 'string' },
  hour: { type: 'string' },
  minute: { type: 'string' },
  ampm: { type: 'string' },
  bandwidth: { type: 'string' },
  parallel: { type: 'string' },
  schedule: { type: 'string', multiple: true },
  from: { type: 'string', multiple: true },
} as const;

const USAGE = `Usage: av-upload <command> [options]

Commands:
  login   --email EMAIL [--password-stdin] [--server URL]   sign in (password prompted on a terminal)
  upload  --form creative|event|sponsor [fields] [--from CLOUD_FILE]… FILE|FOLDER…
            --from dropbox:/Events/keynote.mov | dropbox:id:… | drive:FILE_ID | box:FILE_ID | onedrive:ITEM_ID
            (repeatable): the server copies it from the connected account; nothing passes through here
            creative: --project-name [--description]
            event:    --event-name --date YYYY-MM-DD --hour 1-12 --minute 0-55 --ampm AM|PM
                      --speaker-name [--room-no] [--description]
            sponsor:  --event-name --sponsor-company [--description]
  resume  continue the saved queue (paused and failed files too)
  status  the queue and the sent submissions
  logout  end the session on the server and forget the token
  watch add FOLDER --form … [fields]   send every new file in FOLDER once it has stopped growing (10 s)
  watch [run] | list | remove ID       run the watch folders until Ctrl-C; list them; stop one
  accounts list                         cloud accounts: connected, or what to set to connect one
  accounts connect PROVIDER             sign in in the browser (drive, dropbox, box or onedrive)
  accounts disconnect PROVIDER          revoke the sign-in where the provider allows, and forget it

Options: --json (JSON lines), --bandwidth 2M (0 = unlimited), --parallel 1-8 (parts at once),
         --schedule 'Mon-Fri 09:00-18:00 2MB' (a limit for those hours; repeat for more, 'none' clears)
Exit codes: 0 ok, 1 error, 2 usage or invalid fields, 3 not signed in, 4 upload failed,
            5 a file changed on disk, 6 server unreachable, 130 interrupted (queue saved)
Environment: AV_UPLOAD_SERVER, AV_UPLOAD_HOME, AV_UPLOAD_PASSWORD, HTTP(S)_PROXY, NO_PROXY;
  cloud accounts: AV_GOOGLE_CLIENT_ID, AV_GOOGLE_CLIENT_SECRET, AV_DROPBOX_APP_KEY, AV_BOX_CLIENT_ID,
  AV_BOX_CLIENT_SECRET, AV_ONEDRIVE_CLIENT_ID (+ AV_*_URL, AV_ONEDRIVE_AUTHORITY for staging),
  AV_UPLOAD_BROWSER (the command that opens sign-in pages; 'none' prints them), AV_OAUTH_PORT`;

interface Io {
  json: boolean;
  out(line: string): void;
  err(line: string): void;
  event(record: Record<string, unknown>): void;
}

function io(json: boolean): Io {
  return {
    json,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    event: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
  };
}

function defaultServer(): string {
  return process.env.AV_UPLOAD_SERVER ?? 'http://127.0.0.1:3000';
}

async function readPassword(values: { password?: string; 'password-stdin'?: boolean }): Promise<string> {
  if (values.password !== undefined) return values.password;
  if (process.env.AV_UPLOAD_PASSWORD !== undefined) return process.env.AV_UPLOAD_PASSWORD;
  if (values['password-stdin'] || !process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Hide what is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
  process.stderr.write('Password: ');
  const answer = await rl.question('');
  rl.close();
  process.stderr.write('\n');
  return answer;
}

function signedIn(home: string): Credentials {
  const credentials = readCredentials(home);
  if (!credentials) throw new CliError(EXIT.auth, 'Not signed in: run `av-upload login --email …` first.');
  return credentials;
}

function networkOrThrow(error: unknown): never {
  if (error instanceof UploadError && error.status === 0 && error.code === 'network') {
    throw new CliError(EXIT.network, `Cannot reach the server: ${error.message}`);
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
    throw new CliError(EXIT.network, `Cannot reach the server: ${(error as Error).message}`);
  }
  if (error instanceof UploadError && error.status === 401) {
    throw new CliError(EXIT.auth, 'The session has expired, please relogin and try again.');
  }
  throw error;
}

async function login(values: Record<string, unknown>, home: string, o: Io): Promise<number> {
  const server = String(values.server ?? readCredentials(home)?.server ?? defaultServer()).replace(
    /\/+$/,
    '',
  );
  const email = String(values.email ?? '');
  const password = await readPassword(values as { password?: string });
  const auth = new AuthClient(server);
  try {
    const session = await auth.login(email, password);
    const previous = readCredentials(home);
    if (previous) await new AuthClient(previous.server).logout(previous.token).catch(() => undefined);
    writeCredentials(home, {
      server,
      email: session.user.email,
      token: session.token,
      expiresAt: session.expiresAt,
    });
    if (o.json) o.event({ event: 'login', server, email: session.user.email, expiresAt: session.expiresAt });
    else o.out(`Signed in to ${server} as ${session.user.email} (until ${session.expiresAt}).`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AuthError) {
      throw new CliError(error.status === 400 ? EXIT.usage : EXIT.auth, error.message);
    }
    return networkOrThrow(error);
  }
}

async function logout(home: string, o: Io): Promise<number> {
  const credentials = readCredentials(home);
  if (credentials) {
    try {
      await new AuthClient(credentials.server).logout(credentials.token);
    } catch (error) {
      deleteCredentials(home);
      return networkOrThrow(error);
    }
  }
  deleteCredentials(home);
  if (o.json) o.event({ event: 'logout' });
  else o.out(credentials ? 'Signed out; the token is revoked.' : 'Not signed in.');
  return EXIT.ok;
}

function formValues(values: Record<string, unknown>, files: UploadFileRef[]) {
  const pick = (name: string) => (values[name] === undefined ? undefined : String(values[name]));
  return {
    form_type: String(values.form ?? ''),
    files,
    project_name: pick('project-name'),
    event_name: pick('event-name'),
    sponsor_company: pick('sponsor-company'),
    speaker_name: pick('speaker-name'),
    room_no: pick('room-no'),
    description: pick('description'),
    date: pick('date'),
    hour: pick('hour'),
    minute: pick('minute'),
    ampm: pick('ampm')?.toUpperCase(),
  };
}

const FLAG_OF: Record<string, string> = {
  form_type: '--form',
  files: 'FILE',
  project_name: '--project-name',
  event_name: '--event-name',
  sponsor_company: '--sponsor-company',
  speaker_name: '--speaker-name',
  room_no: '--room-no',
  description: '--description',
  date: '--date',
  hour: '--hour',
  minute: '--minute',
  ampm: '--ampm',
};

/** Ctrl-C or SIGTERM: the open engine stops (its queue saved) and the command ends with EXIT.interrupted. */
let openedEngine: UploadEngine | null = null;
let stopping: Promise<void> | null = null;
let onInterrupt: (code: number) => void = () => undefined;
const interrupted = new Promise<number>((resolve) => (onInterrupt = resolve));
function handleSignals(): void {
  const handler = () => {
    if (!openedEngine) process.exit(EXIT.interrupted);
    stopping = openedEngine.stop();
    void stopping.then(() => onInterrupt(EXIT.interrupted));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The connected cloud accounts, kept in AV_UPLOAD_HOME; sign-in pages open in the system browser. */
function openCloud(home: string, o: Io): CloudAccounts {
  const port = Number(process.env.AV_OAUTH_PORT);
  return new CloudAccounts({
    store: new JsonFileAccountStore(accountsFile(home)),
    cipher: fileKeyCipher(accountsKeyFile(home)),
    settings: cloudSettings(process.env),
    loopbackPort: Number.isInteger(port) && port > 0 ? port : undefined,
    openBrowser: (url, provider) => {
      if (o.json) o.event({ event: 'authorize', provider, url });
      else
        o.err(
          `Opening ${PROVIDER_NAMES[provider]}'s sign-in in your browser. If it does not open, visit:\n  ${url}`,
        );
      openInBrowser(url);
    },
  });
}

/** A cloud-account failure as the CLI's exit: not connected or refused 3, bad refs 2, the provider down 6. */
function cloudFailure(error: unknown): never {
  if (!(error instanceof CloudAccountError)) throw error;
  const code =
    error.code === 'bad_ref' ||
    error.code === 'not_found' ||
    error.code === 'not_a_file' ||
    error.code === 'not_configured'
      ? EXIT.usage
      : error.code === 'provider_error'
        ? EXIT.network
        : error.code === 'cancelled'
          ? EXIT.interrupted
          : EXIT.auth;
  throw new CliError(code, error.message);
}

function openEngine(
  credentials: Credentials,
  home: string,
  values: Record<string, unknown>,
  o?: Io,
): UploadEngine {
  const engine = (openedEngine = new UploadEngine({
    baseUrl: credentials.server,
    store: new JsonFileStore(stateFile(home)),
    token: () => credentials.token,
    cloud: openCloud(home, o ?? io(true)),
  }));
  const settings: Partial<EngineSettings> = {};
  try {
    if (values.bandwidth !== undefined)
      settings.bandwidthBytesPerSecond = parseRate(String(values.bandwidth));
    const windows = values.schedule as string[] | undefined;
    if (windows !== undefined) {
      settings.schedule = windows.some((w) => w.trim().toLowerCase() === 'none')
        ? []
        : windows.map(parseWindow);
    }
  } catch (error) {
    throw new CliError(EXIT.usage, (error as Error).message);
  }
  if (values.parallel !== undefined) {
    const n = Number(values.parallel);
    if (!Number.isInteger(n) || n < 1 || n > 8)
      throw new CliError(EXIT.usage, '--parallel takes a whole number from 1 to 8.');
    settings.partConcurrency = n;
  }
  if (Object.keys(settings).length > 0) engine.setSettings(settings);
  return engine;
}

/** Follows the engine until idle, reporting progress; resolves with the exit code. */
async function follow(engine: UploadEngine, o: Io, begin: () => Promise<void>): Promise<number> {
  const failures: { file: string | null; message: string; code: string }[] = [];
  let unauthorized = false;
  let last = 0;
  const tty = !o.json && process.stdout.isTTY;
  const progress = (force = false) => {
    const now = Date.now();
    if (!force && now - last < (tty ? 200 : 1000)) return;
    last = now;
    const snap = engine.snapshot();
    const jobs = snap.jobs;
    if (o.json) {
      for (const job of jobs) {
        o.event({
          event: 'progress',
          submissionId: job.submissionId,
          state: job.state,
          percent: job.progress.percent,
          sentBytes: job.progress.sentBytes,
          totalBytes: job.progress.totalBytes,
          bytesPerSecond: Math.round(job.progress.bytesPerSecond),
          secondsLeft: job.progress.secondsLeft,
          files: job.files.map((f) => ({
            name: f.name,
            state: f.state,
            percent: f.progress.percent,
            ...(f.cloud ? { cloud: f.cloud } : {}),
          })),
        });
      }
    } else if (tty) {
      const o2 = snap.overall;
      const current = jobs.flatMap((j) => j.files).find((f) => f.state === 'uploading' && !f.cloud);
      const line = `${String(o2.percent).padStart(3)}%  ${bytes(o2.sentBytes)} / ${bytes(o2.totalBytes)}  ${bytes(o2.bytesPerSecond)}/s  ${duration(o2.secondsLeft)} left  ${current ? current.name.slice(0, 24) : ''}`;
      process.stdout.write(`\r\x1b[K${line}`);
    }
  };
  const off = engine.on((event: EngineEvent) => {
    if (event.type === 'change') progress();
    else if (event.type === 'unauthorized') unauthorized = true;
    else if (event.type === 'failed') {
      const job = engine.snapshot().jobs.find((j) => j.id === event.jobId);
      const file = job?.files.find((f) => f.name === event.file);
      failures.push({
        file: event.file,
        message: event.message,
        code: file?.error?.code ?? job?.error?.code ?? 'failed',
      });
      if (o.json)
        o.event({
          event: 'failed',
          submissionId: job?.submissionId,
          file: event.file,
          code: file?.error?.code,
          message: event.message,
        });
      else o.err(`${tty ? '\n' : ''}Failed${event.file ? ` (${event.file})` : ''}: ${event.message}`);
    } else if (event.type === 'submitted') {
      if (o.json) o.event({ event: 'submitted', ...event.entry });
      else {
        if (tty) process.stdout.write('\n');
        o.out(`Sent submission ${event.entry.submissionId}:`);
        for (const f of event.entry.files) o.out(`  ${f.name}  ${bytes(f.size)}  sha-256 ${f.sha256}`);
      }
    }
  });
  await begin();
  let code = await Promise.race([engine.whenIdle().then(() => -1), interrupted]);
  if (stopping) {
    await stopping;
    code = EXIT.interrupted;
  }
  if (code === EXIT.interrupted && !o.json)
    o.err('\nStopped; the queue is saved. Run `av-upload resume` to continue.');
  off();
  if (code !== -1) return code;
  progress(true);
  if (tty) process.stdout.write('\n');
  await engine.stop();
  const errors = engine
    .snapshot()
    .jobs.flatMap((j) => [j.error?.code, ...j.files.map((f) => f.error?.code)])
    .concat(failures.map((f) => f.code));
  if (unauthorized || errors.includes('unauthenticated')) return EXIT.auth;
  if (errors.includes('file_changed')) return EXIT.fileChanged;
  if (errors.includes('network')) return EXIT.network;
  return errors.some((e) => e !== undefined) ? EXIT.uploadFailed : EXIT.ok;
}

async function upload(
  values: Record<string, unknown>,
  positionals: string[],
  home: string,
  o: Io,
): Promise<number> {
  let paths: string[];
  try {
    paths = positionals.length > 0 ? await expandPaths(positionals) : [];
  } catch (error) {
    throw new CliError(
      EXIT.usage,
      `Cannot read ${(error as { path?: string }).path ?? 'a file'}: ${(error as Error).message}`,
    );
  }
  const refs = (values.from as string[] | undefined) ?? [];
  const check = checkUploadForm(
    formValues(
      values,
      [...paths, ...refs].map((p) => ({ name: p })),
    ) as Parameters<typeof checkUploadForm>[0],
  );
  if (!check.ok) {
    if (o.json) o.event({ event: 'invalid', errors: check.errors });
    else
      for (const [field, message] of Object.entries(check.errors))
        o.err(`${FLAG_OF[field] ?? field}: ${message}`);
    return EXIT.usage;
  }
  const credentials = signedIn(home);
  // Each cloud file is looked up first: a wrong path or a disconnected account stops before anything is sent.
  const picked: CloudItem[] = [];
  if (refs.length > 0) {
    const cloud = openCloud(home, o);
    for (const ref of refs) picked.push(await cloud.resolve(ref).catch(cloudFailure));
  }
  const engine = openEngine(credentials, home, values, o);
  try {
    const job = await engine.add(check.fields, paths, picked);
    if (o.json)
      o.event({
        event: 'queued',
        submissionId: job.submissionId,
        files: job.files.map((f) => ({ name: f.name, size: f.size, ...(f.cloud ? { from: f.path } : {}) })),
      });
    else
      o.out(
        `Uploading ${job.files.length} file(s), ${bytes(job.progress.totalBytes)}, submission ${job.submissionId}`,
      );
    // Earlier unfinished submissions continue too, after this one's turn.
    return await follow(engine, o, () => engine.start());
  } catch (error) {
    await engine.stop();
    return networkOrThrow(error);
  }
}

async function resume(values: Record<string, unknown>, home: string, o: Io): Promise<number> {
  const credentials = signedIn(home);
  const engine = openEngine(credentials, home, values, o);
  const pending = engine.snapshot().jobs.length;
  if (pending === 0) {
    if (o.json) o.event({ event: 'idle', jobs: 0 });
    else o.out('Nothing to resume.');
    return EXIT.ok;
  }
  if (!o.json) o.out(`Resuming ${pending} submission(s).`);
  return follow(engine, o, async () => {
    await engine.start();
    await engine.resumeAll();
  });
}

function status(home: string, o: Io): number {
  const credentials = readCredentials(home);
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
        ? `  from ${f.path} (server import ${f.cloud.status ?? 'not started'}, ${bytes(f.progress.sentBytes)} copied)`
        : '';
      o.out(
        `  ${f.state.padEnd(9)} ${f.name}  ${bytes(f.size)}${from}${f.error ? `  ${f.error.message}` : ''}`,
      );
    }
  }
  for (const entry of snap.history.slice(0, 10)) {
    o.out(`Sent ${entry.submittedAt}: ${entry.formType} submission ${entry.submissionId}`);
    for (const f of entry.files) o.out(`  ${f.name}  ${bytes(f.size)}  sha-256 ${f.sha256}`);
  }
  return EXIT.ok;
}

/** `watch add|list|remove|run`: folders whose new files are sent once they stop growing. */
async function watch(
  values: Record<string, unknown>,
  [action = 'run', ...rest]: string[],
  home: string,
  o: Io,
): Promise<number> {
  const credentials = signedIn(home);
  const engine = openEngine(credentials, home, values);
  const watcher = new FolderWatcher(engine, engine.watchStore(), {
    onError: (w, error) =>
      o.json
        ? o.event({ event: 'watch_error', folder: w.folder, message: error.message })
        : o.err(`${w.folder}: ${error.message}`),
  });
  switch (action) {
    case 'add': {
      const folder = rest[0];
      if (!folder || rest.length > 1) throw new CliError(EXIT.usage, 'watch add takes one FOLDER.');
      const check = checkUploadForm(
        formValues(values, [{ name: folder }]) as Parameters<typeof checkUploadForm>[0],
      );
      if (!check.ok) {
        for (const [field, message] of Object.entries(check.errors))
          o.err(`${FLAG_OF[field] ?? field}: ${message}`);
        return EXIT.usage;
      }
      const added = await watcher.add(folder, check.fields).catch((error: Error) => {
        throw new CliError(EXIT.usage, error.message);
      });
      if (o.json)
        o.event({ event: 'watching', id: added.id, folder: added.folder, form: added.fields.form_type });
      else
        o.out(
          `Watching ${added.folder} (${added.fields.form_type}); id ${added.id}. Run \`av-upload watch\` to send.`,
        );
      await engine.stop();
      return EXIT.ok;
    }
    case 'list': {
      const all = watcher.list();
      if (o.json) o.event({ event: 'watches', watches: all });
      else if (all.length === 0) o.out('No watch folders.');
      else for (const w of all) o.out(`${w.id}  ${w.fields.form_type.padEnd(8)}  ${w.folder}`);
      await engine.stop();
      return EXIT.ok;
    }
    case 'remove': {
      const id = rest[0];
      if (!id || !watcher.list().some((w) => w.id === id))
        throw new CliError(EXIT.usage, `No watch folder with id ${id ?? '(none)'}.`);
      watcher.remove(id);
      if (!o.json) o.out('Stopped watching; files already queued still go.');
      await engine.stop();
      return EXIT.ok;
    }
    case 'run': {
      if (watcher.list().length === 0)
        throw new CliError(
          EXIT.usage,
          'No watch folders: add one with `av-upload watch add FOLDER --form …`.',
        );
      if (!o.json)
        for (const w of watcher.list())
          o.out(`Watching ${w.folder} (${w.fields.form_type}). Ctrl-C to stop.`);
      const off = engine.on((event) => {
        if (event.type === 'submitted') {
          if (o.json) o.event({ event: 'submitted', ...event.entry });
          else
            o.out(
              `Sent ${event.entry.files.map((f) => f.name).join(', ')} (submission ${event.entry.submissionId})`,
            );
        } else if (event.type === 'failed') {
          if (o.json) o.event({ event: 'failed', file: event.file, message: event.message });
          else o.err(`Failed${event.file ? ` (${event.file})` : ''}: ${event.message}`);
        }
      });
      await engine.start();
      watcher.start();
      // The watcher's and the engine's timers do not hold a process open on their own: this one does.
      const alive = setInterval(() => undefined, 60_000);
      const code = await interrupted;
      clearInterval(alive);
      await watcher.stop();
      off();
      if (stopping) await stopping;
      return code;
    }
    default:
      throw new CliError(EXIT.usage, `Unknown watch action: ${action} (add, list, remove or run).`);
  }
}

/** `accounts list|connect|disconnect PROVIDER`: the cloud accounts files can be imported from. */
async function accounts(action: string | undefined, rest: string[], home: string, o: Io): Promise<number> {
  const cloud = openCloud(home, o);
  if (action === undefined || action === 'list') {
    const all = cloud.providers();
    if (o.json) o.event({ event: 'accounts', providers: all });
    else
      for (const p of all)
        o.out(
          `${p.providerName.padEnd(13)} ${
            p.account
              ? `connected as ${p.account.email ?? p.account.name ?? '(unknown)'} since ${p.account.connectedAt}`
              : p.configured
                ? 'not connected'
                : p.message
          }`,
        );
    return EXIT.ok;
  }
  const provider = rest[0] ? parseProvider(rest[0]) : null;
  if (!provider || rest.length > 1)
    throw new CliError(EXIT.usage, `accounts ${action} takes one PROVIDER: drive, dropbox, box or onedrive.`);
  switch (action) {
    case 'connect': {
      const controller = new AbortController();
      const abort = () => controller.abort();
      process.once('SIGINT', abort);
      try {
        const account = await cloud.connect(provider, { signal: controller.signal }).catch(cloudFailure);
        if (o.json) o.event({ event: 'connected', ...account });
        else o.out(`${account.providerName} connected as ${account.email ?? account.name ?? '(unknown)'}.`);
        return EXIT.ok;
      } finally {
        process.off('SIGINT', abort);
      }
    }
    case 'disconnect': {
      const result = await cloud.disconnect(provider);
      if (o.json) o.event({ event: 'disconnected', ...result });
      else o.out(result.message);
      return EXIT.ok;
    }
    default:
      throw new CliError(EXIT.usage, `Unknown accounts action: ${action} (list, connect or disconnect).`);
  }
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const o = io(Boolean(values.json) || !process.stdout.isTTY);
  if (values.help || !command) {
    (command || values.help ? o.out : o.err)(USAGE);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const home = homeDir();
  handleSignals();
  try {
    switch (command) {
      case 'login':
        return await login(values, home, o);
      case 'logout':
        return await logout(home, o);
      case 'upload':
        return await upload(values, rest, home, o);
      case 'resume':
        return await resume(values, home, o);
      case 'status':
        return status(home, o);
      case 'watch':
        return await watch(values, rest, home, o);
      case 'accounts':
        return await accounts(rest[0], rest.slice(1), home, o);
      default:
        o.err(`Unknown command: ${command}\n\n${USAGE}`);
        return EXIT.usage;
    }
  } catch (error) {
    if (error instanceof CliError) {
      if (o.json) o.event({ event: 'error', exitCode: error.exitCode, message: error.message });
      else o.err(error.message);
      return error.exitCode;
    }
    o.err(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return EXIT.error;
  }
}

const exitCode = await main(process.argv.slice(2));
process.exitCode = exitCode;
