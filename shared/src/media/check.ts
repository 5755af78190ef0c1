/**
 * The spec rules: a file's facts against what an event's screens need, one sentence per mismatch naming
 * the need and the file's value ("The screens need 1920×1080; this file is 1280×720."). Pure: the browser
 * worker's caller, the desktop engine, av-upload and the server all decide with this one function.
 *
 * A spec describes the event's video. A video file is checked against all of it; an image, an audio-only
 * file or a document only against the largest size (a sponsor's logo or a walk-in track is not a wrong
 * video). A fact the file does not give (no duration, an unknown frame rate) is never a mismatch.
 */
import { formatBytes } from '../format.js';
import {
  describeAudio,
  formatChannels,
  formatDuration,
  formatFrameRate,
  formatResolution,
  formatSampleRate,
} from './describe.js';
import { audioCodecDisplayName, containerDisplayName, sameName, videoCodecDisplayName } from './names.js';
import type { MediaCheck, MediaFacts, MediaSpec } from './types.js';

/** Frame rates closer than this are the same rate (29.97 and 30000/1001, 23.976 and 23.98). */
export const FRAME_RATE_TOLERANCE = 0.01;

/** 'A', 'A or B', 'A, B or C'. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function sizeWords(bytes: number, other: number): string {
  const text = formatBytes(bytes);
  // Two sizes that round alike ('2 GB' and '2 GB') would make a sentence that says nothing: say bytes.
  return text === formatBytes(other) ? `${bytes.toLocaleString('en-US')} bytes` : text;
}

/** Whether `name` is in `list`, both read as display names ('quicktime' in a spec is the file's 'MOV'). */
function includesName(list: readonly string[], name: string, display: (name: string) => string): boolean {
  return list.some((item) => sameName(display(item), display(name)));
}

function videoIssues(spec: MediaSpec, facts: MediaFacts): string[] {
  const issues: string[] = [];
  if (
    spec.containers.length > 0 &&
    facts.container &&
    !includesName(spec.containers, facts.container, containerDisplayName)
  ) {
    issues.push(`The screens need ${orList(spec.containers)}; this file is ${facts.container}.`);
  }
  if (
    spec.videoCodecs.length > 0 &&
    facts.videoCodec &&
    !includesName(spec.videoCodecs, facts.videoCodec, videoCodecDisplayName)
  ) {
    issues.push(`The screens need ${orList(spec.videoCodecs)}; this file is ${facts.videoCodec}.`);
  }
  if (spec.resolutions.length > 0 && facts.width !== null && facts.height !== null) {
    const { width, height } = facts;
    if (!spec.resolutions.some((r) => r.width === width && r.height === height)) {
      const needs = spec.resolutions.map((r) => formatResolution(r.width, r.height));
      issues.push(`The screens need ${orList(needs)}; this file is ${formatResolution(width, height)}.`);
    }
  }
  if (spec.frameRates.length > 0 && facts.fps !== null) {
    const fps = facts.fps;
    if (!spec.frameRates.some((rate) => Math.abs(rate - fps) <= FRAME_RATE_TOLERANCE + 1e-9)) {
      const needs = spec.frameRates.map(formatFrameRate);
      issues.push(`The screens need ${orList(needs)} fps; this file is ${formatFrameRate(fps)} fps.`);
    }
  }
  if (facts.durationSeconds !== null) {
    const runs = Math.round(facts.durationSeconds);
    const text = formatDuration(facts.durationSeconds);
    if (spec.maxDurationSeconds !== null && runs > Math.round(spec.maxDurationSeconds)) {
      issues.push(`The slot is at most ${formatDuration(spec.maxDurationSeconds)}; this file runs ${text}.`);
    }
    if (spec.minDurationSeconds !== null && runs < Math.round(spec.minDurationSeconds)) {
      issues.push(`The slot is at least ${formatDuration(spec.minDurationSeconds)}; this file runs ${text}.`);
    }
  }
  issues.push(...audioIssues(spec.audio, facts));
  return issues;
}

function audioIssues(need: MediaSpec['audio'], facts: MediaFacts): string[] {
  if (need === null) return [];
  const audio = facts.audio;
  if (need === 'none') {
    return audio ? [`The screens need no audio; this file has ${describeAudio(audio)}.`] : [];
  }
  if (!audio) {
    const words = [
      need.codecs.length > 0 ? orList(need.codecs) : '',
      need.sampleRates.length > 0 ? orList(need.sampleRates.map(formatSampleRate)) : '',
      need.channels.length > 0 ? orList(need.channels.map(formatChannels)) : '',
    ].filter(Boolean);
    return [`The screens need ${[...words, 'audio'].join(' ')}; this file has none.`];
  }
  const issues: string[] = [];
  if (need.codecs.length > 0 && !includesName(need.codecs, audio.codec, audioCodecDisplayName)) {
    issues.push(`The screens need ${orList(need.codecs)} audio; this file has ${audio.codec} audio.`);
  }
  if (
    need.sampleRates.length > 0 &&
    audio.sampleRate !== null &&
    !need.sampleRates.includes(audio.sampleRate)
  ) {
    issues.push(
      `The screens need ${orList(need.sampleRates.map(formatSampleRate))} audio; ` +
        `this file has ${formatSampleRate(audio.sampleRate)} audio.`,
    );
  }
  if (need.channels.length > 0 && audio.channels !== null && !need.channels.includes(audio.channels)) {
    issues.push(
      `The screens need ${orList(need.channels.map(formatChannels))} audio; ` +
        `this file has ${formatChannels(audio.channels)} audio.`,
    );
  }
  return issues;
}

/**
 * Checks a file's facts against an event's spec. No spec: 'ok'. Facts not read: 'unreadable' with no
 * issues (the file is sent; reading failing is never a reason to stop it). Mismatches: 'block' when the
 * spec blocks, else 'warn'.
 */
export function checkMediaFacts(spec: MediaSpec | null, facts: MediaFacts | null): MediaCheck {
  if (spec === null) return { verdict: 'ok', issues: [] };
  if (facts === null) return { verdict: 'unreadable', issues: [] };
  const issues = facts.kind === 'video' ? videoIssues(spec, facts) : [];
  if (spec.maxSizeBytes !== null && facts.sizeBytes > spec.maxSizeBytes) {
    issues.push(
      `The largest file the event takes is ${sizeWords(spec.maxSizeBytes, facts.sizeBytes)}; ` +
        `this file is ${sizeWords(facts.sizeBytes, spec.maxSizeBytes)}.`,
    );
  }
  if (issues.length === 0) return { verdict: 'ok', issues };
  return { verdict: spec.onMismatch === 'block' ? 'block' : 'warn', issues };
}
