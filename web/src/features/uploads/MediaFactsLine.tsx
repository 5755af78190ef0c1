/**
 * Under a picked file's row (issue #30): its facts in words ("1920×1080 · H.264 · 29.97 fps · 0:30 · AAC
 * 48 kHz stereo"), and, when the form's event has a media spec, each way the file misses it, one sentence
 * each ("The screens need 1920×1080; this file is 1280×720."), marked as stopping the file or as a note
 * sent with it.
 */
import { checkMediaFacts, describeMediaFacts, MEDIA_UNREADABLE, type MediaCheck } from '@avp/shared';
import type { FileFacts } from './media-facts';
import type { AppliedSpec } from './media-spec';

export const READING_FACTS = 'Reading this file’s details…';
export const BLOCKED_NOTE = 'This file cannot be sent for this event.';
export const WARNED_NOTE = 'It can be sent; our team will see these notes with it.';
export const UNREADABLE_NOTE = 'It will be sent as it is.';

/** The check of a read file against the applied spec; null while it is being read. */
export function fileCheck(state: FileFacts | undefined, applied: AppliedSpec | null): MediaCheck | null {
  if (!state || state.status === 'reading') return null;
  return checkMediaFacts(applied?.spec ?? null, state.facts);
}

export function MediaFactsLine({
  state,
  applied,
}: {
  state: FileFacts | undefined;
  applied: AppliedSpec | null;
}) {
  if (!state || state.status === 'reading') {
    return (
      <p className="uploads-facts uploads-facts--reading" data-testid="file-facts">
        {READING_FACTS}
      </p>
    );
  }
  const check = checkMediaFacts(applied?.spec ?? null, state.facts);
  const line = describeMediaFacts(state.facts);
  return (
    <div className={`uploads-facts uploads-facts--${check.verdict}`}>
      <p className="uploads-facts__line" data-testid="file-facts">
        {line}
        {state.facts === null && applied?.spec ? <> · {UNREADABLE_NOTE}</> : null}
      </p>
      {check.issues.length > 0 ? (
        <div className="uploads-facts__issues" data-testid="file-issues">
          <ul>
            {check.issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
          <p className="uploads-facts__verdict">{check.verdict === 'block' ? BLOCKED_NOTE : WARNED_NOTE}</p>
        </div>
      ) : null}
    </div>
  );
}

export { MEDIA_UNREADABLE };
