/** `upload --form … [fields] [--from CLOUD_FILE]… FILE|FOLDER…`: queue one submission and send it. */
import { formatBytes } from '@avp/shared';
import type { CloudItem } from '../../engine/cloud/index.js';
import { expandPaths } from '../../engine/engine.js';
import { checkUploadForm } from '../../engine/forms.js';
import { cloudFailure, openCloud } from '../cloud.js';
import { CliError, EXIT, networkOrThrow } from '../errors.js';
import { follow } from '../follow.js';
import { FLAG_OF, formValues } from '../form.js';
import { openEngine } from '../open-engine.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';

export const upload: Command = async ({ values, args, home, o }) => {
  let paths: string[];
  try {
    paths = args.length > 0 ? await expandPaths(args) : [];
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
    ),
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
        `Uploading ${job.files.length} file(s), ${formatBytes(job.progress.totalBytes)}, submission ${job.submissionId}`,
      );
    // Earlier unfinished submissions continue too, after this one's turn.
    return await follow(engine, o, () => engine.start());
  } catch (error) {
    await engine.stop();
    return networkOrThrow(error);
  }
};
