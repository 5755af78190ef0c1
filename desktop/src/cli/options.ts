/** av-upload's flags, which command takes which, and the usage text that lists them and the exit codes. */
import { RATE_UNITS } from '../engine/rate.js';

export const OPTIONS = {
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
  'give-up-after': { type: 'string' },
  'only-new': { type: 'boolean' },
  event: { type: 'string' },
  'accepted-only': { type: 'boolean' },
} as const;

export type OptionName = keyof typeof OPTIONS;

/** Every command takes these. */
const COMMON: OptionName[] = ['json', 'help'];
const FORM: OptionName[] = [
  'form',
  'project-name',
  'event-name',
  'sponsor-company',
  'speaker-name',
  'room-no',
  'description',
  'date',
  'hour',
  'minute',
  'ampm',
];
/** Options that shape one run's sending. */
export const RUN: OptionName[] = ['bandwidth', 'parallel', 'schedule'];

/** The options each command (or `watch` action) takes besides COMMON; any other is refused. */
export const COMMAND_OPTIONS: Record<string, OptionName[]> = {
  login: ['server', 'email', 'password', 'password-stdin'],
  logout: [],
  upload: [...FORM, 'from', ...RUN, 'give-up-after'],
  resume: [...RUN, 'give-up-after'],
  status: [],
  settings: RUN,
  'watch add': [...FORM, 'only-new'],
  'watch run': RUN,
  'watch list': [],
  'watch remove': [],
  accounts: [],
  pull: ['event', 'accepted-only', 'bandwidth', 'parallel'],
};

/**
 * The first option given that `command` does not take, as a sentence saying where it belongs; null when
 * all are taken. Without this, `status --bandwidth 0` would be read and silently ignored.
 */
export function refusedOption(command: string, given: string[]): string | null {
  const allowed = new Set<string>([...COMMON, ...(COMMAND_OPTIONS[command] ?? [])]);
  const wrong = given.find((name) => !allowed.has(name));
  if (wrong === undefined) return null;
  const takes = (COMMAND_OPTIONS[command] ?? []).map((o) => `--${o}`);
  const hint = (RUN as string[]).includes(wrong)
    ? ` To change the default of every run: av-upload settings --${wrong} …; for one run: av-upload upload|resume --${wrong} ….`
    : wrong === 'give-up-after'
      ? ' It applies to upload and resume.'
      : '';
  return `${command} does not take --${wrong}.${hint}${
    hint ? '' : takes.length > 0 ? ` It takes: ${takes.join(', ')} (and --json).` : ' It takes only --json.'
  }`;
}

/** How long a bounded run (upload, resume) keeps trying an unreachable server, unless told otherwise. */
export const DEFAULT_GIVE_UP_AFTER = '2m';

export const USAGE = `Usage: av-upload <command> [options]

Commands:
  login   --email EMAIL [--password-stdin] [--server URL]   sign in (password prompted on a terminal)
  upload  --form creative|event|sponsor [fields] [--from CLOUD_FILE]… FILE|FOLDER…
            --from dropbox:/Events/keynote.mov | dropbox:id:… | drive:FILE_ID | box:FILE_ID | onedrive:ITEM_ID
            (repeatable): the server copies it from the connected account; nothing passes through here
            creative: --project-name [--description]
            event:    --event-name --date YYYY-MM-DD --hour 1-12 --minute 0-55 --ampm AM|PM
                      --speaker-name [--room-no] [--description]
            sponsor:  --event-name --sponsor-company [--description]
          The job is saved before anything is sent: when the server does not answer, av-upload says so
          and tries again ("retrying in 8 s (attempt 3)") until --give-up-after, then exits 6 with the job
          kept for \`av-upload resume\`.
  resume  continue the saved queue (paused, failed and waiting files too)
  status  the queue, whether it waits for the server, the saved settings and the sent submissions
  settings [--bandwidth R] [--parallel N] [--schedule W]…   save the defaults of every run (none: show them)
  logout  end the session on the server and forget the token
  watch add FOLDER --form … [fields] [--only-new]
          send the files already in FOLDER, then every new one, once each has stopped growing (10 s);
          --only-new: leave the files already there alone
  watch [run] | list | remove ID       run the watch folders until Ctrl-C; list them; stop one
  accounts list                         cloud accounts: connected, or what to set to connect one
  accounts connect PROVIDER             sign in in the browser (drive, dropbox, box or onedrive)
  accounts disconnect PROVIDER          revoke the sign-in where the provider allows, and forget it
  pull --event NAME [--accepted-only] [--bandwidth R] [--parallel N] DIR   (staff accounts)
          every file of the event into DIR/<company>/<file>, each checked against the server's sha-256
          (a mismatch is fetched once more, then reported, exit 4); run it again to resume after Ctrl-C:
          verified files are skipped, partial ones continued; DIR/manifest.csv lists them all

For one run (upload, resume, watch run), or saved as defaults with \`settings\`:
  --bandwidth 2M     at most 2 MB/s for all files together (500k, 1.5M, 0 = unlimited);
                     ${RATE_UNITS}
  --parallel 1-8     parts sent at once
  --schedule 'Mon-Fri 09:00-18:00 2MB'   a limit for those hours (repeat for more; 'none': no schedule)
Upload and resume: --give-up-after 2m   how long to keep trying a server that does not answer (default
  ${DEFAULT_GIVE_UP_AFTER}, or AV_UPLOAD_GIVE_UP_AFTER; 90s, 10m, 1h)
--json: JSON lines on stdout (also when stdout is not a terminal), e.g. {"event":"retry",…}

Exit codes: 0 ok, 1 unexpected error (a bug, a disk error), 2 usage or invalid fields, 3 not signed in or
            credentials refused, 4 the server refused a file or the submission (its message is printed),
            5 a file changed on disk, 6 server unreachable (the job is saved: \`av-upload resume\`),
            130 interrupted (queue saved)
Environment: AV_UPLOAD_SERVER, AV_UPLOAD_HOME, AV_UPLOAD_PASSWORD, AV_UPLOAD_GIVE_UP_AFTER,
  AV_UPLOAD_CONNECT_TIMEOUT (10), AV_UPLOAD_IDLE_TIMEOUT (60), AV_UPLOAD_RESPONSE_TIMEOUT (30),
  AV_UPLOAD_COMPLETE_TIMEOUT (300) in seconds, HTTP(S)_PROXY, NO_PROXY; cloud accounts: AV_GOOGLE_CLIENT_ID, AV_GOOGLE_CLIENT_SECRET,
  AV_DROPBOX_APP_KEY, AV_BOX_CLIENT_ID, AV_BOX_CLIENT_SECRET, AV_ONEDRIVE_CLIENT_ID (+ AV_*_URL,
  AV_ONEDRIVE_AUTHORITY for staging), AV_UPLOAD_BROWSER (the command that opens sign-in pages; 'none'
  prints them), AV_OAUTH_PORT`;
