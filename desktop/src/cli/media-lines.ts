/**
 * What av-upload says of each file's media facts before anything is sent (issue #30). On a terminal: the
 * facts line of each file and each mismatch with the event's spec, then, when a file is blocked, which
 * (exit 2, nothing queued). As JSON lines: the facts ride on the 'queued' event's files (factsOf), and a
 * blocked upload is one 'blocked' event. Warnings are said and the files sent.
 */
import type { FileView, Inspection } from '../engine/index.js';
import type { Io } from './io.js';

/** Says the inspection; answers the names of the blocked files (empty: the upload may go on). */
export function reportFacts(inspection: Inspection, o: Io): string[] {
  const blocked = inspection.files.filter((f) => f.check.verdict === 'block');
  const names = blocked.map((f) => f.name);
  if (o.json) {
    if (blocked.length > 0)
      o.event({
        event: 'blocked',
        ...(inspection.event ? { uploadEvent: inspection.event } : {}),
        files: inspection.files.map((f) => ({
          name: f.name,
          path: f.path,
          facts: f.facts,
          factsText: f.factsText,
          check: f.check,
        })),
        message: blockedLine(inspection, names),
      });
    return names;
  }
  if (inspection.unavailable)
    o.err(
      `The event's media spec could not be fetched (${inspection.unavailable}); the server checks the files when they are registered.`,
    );
  for (const file of inspection.files) {
    o.out(`${file.name}  ${file.factsText}`);
    const label = file.check.verdict === 'block' ? 'Blocked' : 'Warning';
    for (const issue of file.check.issues) o.out(`  ${label}: ${issue}`);
  }
  if (blocked.length > 0) o.err(blockedLine(inspection, names));
  return names;
}

/** A queued file's facts for its JSON line: { facts, factsText, check } when they were read. */
export function factsOf(file: FileView): Record<string, unknown> {
  if (file.factsText === undefined) return {};
  return { facts: file.facts, factsText: file.factsText, ...(file.check ? { check: file.check } : {}) };
}

/**
 * "Not sent: a.mp4 and b.mov do not meet the media spec of Expo 2027, which blocks such files. Nothing was
 * queued."
 */
export function blockedLine(inspection: Inspection, names: string[]): string {
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const verb = names.length === 1 ? 'does' : 'do';
  const of = inspection.event ? `the media spec of ${inspection.event}` : "the event's media spec";
  return `Not sent: ${list} ${verb} not meet ${of}, which blocks such files. Nothing was queued.`;
}
