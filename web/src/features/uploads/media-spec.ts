/**
 * Which event's media spec applies to an upload form (issue #30), and what it asks for in words. The form's
 * Event name picks the event by the server's rule (trimmed, case-insensitive equality with an open event's
 * name); free text picks none, and the files carry no check.
 */
import {
  eventNameKey,
  formatBytes,
  formatChannels,
  formatDuration,
  formatFrameRate,
  formatResolution,
  formatSampleRate,
  orList,
  type MediaSpec,
  type UploadEventPublic,
  type UploadFormType,
} from '@avp/shared';

export interface AppliedSpec {
  event: UploadEventPublic;
  spec: MediaSpec | null;
}

/** The open event the typed name names, with its spec for this form type; null for free text. */
export function appliedSpec(
  events: readonly UploadEventPublic[] | undefined,
  eventName: string,
  formType: UploadFormType,
): AppliedSpec | null {
  // The creative form has no Event name: none of its files are checked.
  if (!events || formType === 'creative') return null;
  const key = eventNameKey(eventName);
  if (key === '') return null;
  const event = events.find((e) => eventNameKey(e.name) === key);
  return event ? { event, spec: event.specs[formType] } : null;
}

/**
 * What the screens need, as a client reads it under the Event name: "MP4 or MOV · H.264 · 1920×1080 ·
 * 29.97 fps · at most 0:30 · no audio · up to 2 GB".
 */
export function describeNeeds(spec: MediaSpec): string {
  const parts: string[] = [];
  if (spec.containers.length > 0) parts.push(orList(spec.containers));
  if (spec.videoCodecs.length > 0) parts.push(orList(spec.videoCodecs));
  if (spec.resolutions.length > 0) {
    parts.push(orList(spec.resolutions.map((r) => formatResolution(r.width, r.height))));
  }
  if (spec.frameRates.length > 0) parts.push(`${orList(spec.frameRates.map(formatFrameRate))} fps`);
  const { minDurationSeconds: min, maxDurationSeconds: max } = spec;
  if (min !== null && max !== null) parts.push(`${formatDuration(min)} to ${formatDuration(max)} long`);
  else if (max !== null) parts.push(`at most ${formatDuration(max)} long`);
  else if (min !== null) parts.push(`at least ${formatDuration(min)} long`);
  if (spec.audio === 'none') parts.push('no audio');
  else if (spec.audio !== null) {
    const { codecs, sampleRates, channels } = spec.audio;
    const words = [
      codecs.length > 0 ? orList(codecs) : '',
      sampleRates.length > 0 ? orList(sampleRates.map(formatSampleRate)) : '',
      channels.length > 0 ? orList(channels.map(formatChannels)) : '',
    ].filter(Boolean);
    parts.push(`${[...words, 'audio'].join(' ')}`);
  }
  if (spec.maxSizeBytes !== null) parts.push(`up to ${formatBytes(spec.maxSizeBytes)}`);
  return parts.join(' · ');
}

/** The quiet line under the Event name when an event's spec applies to this form's files. */
export function specNote(applied: AppliedSpec | null): string | null {
  if (!applied) return null;
  const { event, spec } = applied;
  if (spec === null) return `${event.name} does not check these files. Uploads close ${event.deadlineText}.`;
  const needs = describeNeeds(spec);
  const lead =
    needs === '' ? `${event.name}’s screens take any file` : `${event.name}’s screens need ${needs}`;
  const rule =
    spec.onMismatch === 'block'
      ? 'A file that does not match cannot be sent.'
      : 'A file that does not match is sent with a note for our team.';
  return `${lead}. ${rule} Uploads close ${event.deadlineText}.`;
}
