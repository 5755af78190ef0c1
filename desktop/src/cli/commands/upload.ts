/** `upload --form … [fields] [--from CLOUD_FILE]… FILE|FOLDER…`: queue one submission and send it. */
import { formatBytes } from '@avp/shared';
import type { CloudItem } from '../../engine/cloud/index.js';
import { checkPaths, PathsRefusedError } from '../../engine/paths.js';
import type { RefusedPath } from '../../engine/paths.js';
import { cloudFailure, openCloud } from '../cloud.js';
import { EXIT } from '../errors.js';
import { follow } from '../follow.js';
import { checkForm, FLAG_OF } from '../form.js';
import { factsOf, reportFacts } from '../media-lines.js';
import type { Io } from '../io.js';
import { giveUpAfterMs, openEngine } from '../open-engine.js';
import { holdQueue } from '../queue-lock.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';

export const upload: Command = async ({ values, args, home, o }) => {
  // Checked here, before the form, so that a typo in a path is named rather than "Please Add a File.".
  const { files, refused } = args.length > 0 ? await checkPaths(args) : { files: [], refused: [] };
  if (refused.length > 0) return refusePaths(refused, o);
  const refs = (values.from as string[] | undefined) ?? [];
  const check = checkForm(
    values,
    [...files.map((f) => f.path), ...refs].map((p) => ({ name: p })),
  );
  if (!check.ok) {
    if (o.json) o.event({ event: 'invalid', errors: check.errors });
    else
      for (const [field, message] of Object.entries(check.errors))
        o.err(`${FLAG_OF[field] ?? field}: ${message}`);
    return EXIT.usage;
  }
  const giveUp = giveUpAfterMs(values);
  const credentials = signedIn(home);
  // Each cloud file is looked up first: a wrong path or a disconnected account stops before anything is sent.
  const picked: CloudItem[] = [];
  if (refs.length > 0) {
    const cloud = openCloud(home, o);
    for (const ref of refs) picked.push(await cloud.resolve(ref).catch(cloudFailure));
  }
  holdQueue(home, 'upload');
  const engine = openEngine(credentials, home, values, o);
  let job;
  try {
    // Each file's facts and the event's spec, said before anything is sent; a blocked file stops here.
    // The files walked above: inspect() and add() do not walk the paths again (a walk looks at each file
    // twice, 2,000 file-system calls for a folder of a thousand).
    const inspection = await engine.inspect(check.fields, args, files);
    if (reportFacts(inspection, o).length > 0) {
      await engine.stop();
      return EXIT.usage;
    }
    // Saved at once, whether or not the server answers: it is registered when it does.
    job = await engine.add(check.fields, args, picked, inspection, files);
  } catch (error) {
    await engine.stop();
    if (error instanceof PathsRefusedError) return refusePaths(error.refused, o);
    throw error;
  }
  if (o.json)
    o.event({
      event: 'queued',
      submissionId: job.submissionId,
      files: job.files.map((f) => ({
        name: f.name,
        size: f.size,
        ...(f.cloud ? { from: f.path } : {}),
        ...factsOf(f),
      })),
    });
  else o.out(`Uploading ${job.files.length} file(s), ${formatBytes(job.progress.totalBytes)}.`);
  // Earlier unfinished submissions continue too, after this one's turn.
  return follow(engine, o, () => engine.start({ giveUpAfterMs: giveUp }), {
    home,
    server: credentials.server,
    command: 'upload',
    giveUpAfterMs: giveUp,
  });
};

/** Paths that cannot be sent, each with its reason in words; nothing was queued (exit 2). */
function refusePaths(refused: RefusedPath[], o: Io): number {
  if (o.json)
    o.event({ event: 'invalid', errors: { files: new PathsRefusedError(refused).message }, refused });
  else for (const r of refused) o.err(`${r.path}: ${r.reason}.`);
  if (!o.json) o.err('Nothing was queued.');
  return EXIT.usage;
}
