/** av-upload's flags, and the usage text that lists its commands, flags and exit codes. */
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
} as const;

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
