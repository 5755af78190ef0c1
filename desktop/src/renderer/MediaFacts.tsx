/**
 * A file's media facts in the window (issue #30), as the portal shows them: the facts line under each
 * chosen file ("1920×1080 · H.264 · 29.97 fps · 0:30 · AAC 48 kHz stereo") and, when the form names an
 * open event with a media spec, one sentence per mismatch, marked as stopping the file or as a note sent
 * with it. The styles are the portal's (uploads.css, brought by @avp/web/upload-form).
 */
import { checkMediaFacts, describeMediaFacts, truncateFileName } from '@avp/shared';
import type { MediaCheck, MediaFacts, MediaSpec } from '@avp/shared';

export const READING_FACTS = 'Reading this file’s details…';
export const BLOCKED_NOTE = 'This file cannot be sent for this event.';
export const WARNED_NOTE = 'It can be sent; our team will see these notes with it.';

/** A chosen file's facts: being read, or read (null: not readable). */
export type FactsState = { status: 'reading' } | { status: 'read'; facts: MediaFacts | null };

/** The facts line and the check's sentences; `check` absent: no spec applies (facts only). */
export function FactsLine({ text, check }: { text: string; check?: MediaCheck | undefined }) {
  const issues = check?.issues ?? [];
  return (
    <div className={`uploads-facts uploads-facts--${check?.verdict ?? 'ok'}`}>
      <p className="uploads-facts__line" data-testid="file-facts">
        {text}
      </p>
      {issues.length > 0 ? (
        <div className="uploads-facts__issues" data-testid="file-issues">
          <ul>
            {issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
          <p className="uploads-facts__verdict">{check?.verdict === 'block' ? BLOCKED_NOTE : WARNED_NOTE}</p>
        </div>
      ) : null}
    </div>
  );
}

/** Under a chosen file: reading, or its facts checked against the spec the form's event gives. */
export function ChosenFacts({ state, spec }: { state: FactsState | undefined; spec: MediaSpec | null }) {
  if (!state) return null;
  if (state.status === 'reading') {
    return (
      <p className="uploads-facts uploads-facts--reading" data-testid="file-facts">
        {READING_FACTS}
      </p>
    );
  }
  return <FactsLine text={describeMediaFacts(state.facts)} check={checkMediaFacts(spec, state.facts)} />;
}

/** Why the form cannot be queued: the files the event's spec blocks, by name; null when none. */
export function blockedReason(names: string[], event: string): string | null {
  if (names.length === 0) return null;
  const needs = `what ${event}’s screens need`;
  if (names.length === 1)
    return `${truncateFileName(names[0]!)} does not meet ${needs}, so it cannot be sent. Remove it or choose another file.`;
  const list = names.map((name) => truncateFileName(name)).join(', ');
  return `${names.length} files do not meet ${needs}, so they cannot be sent: ${list}. Remove them or choose other files.`;
}
