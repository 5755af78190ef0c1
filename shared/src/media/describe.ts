/**
 * A file's media facts in words, as a file row, the staff inbox, the notice mail and av-upload show them:
 * "1920×1080 · H.264 · 29.97 fps · 0:30 · AAC 48 kHz stereo". The same pieces word the spec check's
 * sentences (check.ts), so a mismatch names the file's value exactly as its facts line does.
 */
import { formatBytes } from '../format.js';
import type { AudioFacts, MediaFacts } from './types.js';

/** What a file row shows when the reader could not tell what the file is. */
export const MEDIA_UNREADABLE = "Could not read this file's details";

const SEPARATOR = ' · ';

/** '1920×1080'. */
export function formatResolution(width: number, height: number): string {
  return `${width}×${height}`;
}

/**
 * A frame rate as engineers write it: up to three decimals, no trailing zeros ('25', '29.97', '23.976',
 * '59.94'); 30000/1001 = 29.97002997… prints as '29.97'.
 */
export function formatFrameRate(fps: number): string {
  return String(Math.round(fps * 1000) / 1000);
}

/**
 * A duration rounded to the nearest whole second, as a clock: '0:05', '1:30', '12:00', '1:02:03'. The check
 * compares durations after the same rounding, so a sentence never reads "at most 0:30; this file runs 0:30".
 */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** '48 kHz', '44.1 kHz', '96 kHz'. */
export function formatSampleRate(hz: number): string {
  return `${Math.round(hz / 100) / 10} kHz`;
}

/** 'mono', 'stereo', '5.1', '7.1', else '4 channels'. */
export function formatChannels(channels: number): string {
  switch (channels) {
    case 1:
      return 'mono';
    case 2:
      return 'stereo';
    case 6:
      return '5.1';
    case 8:
      return '7.1';
    default:
      return `${channels} channels`;
  }
}

/** 'AAC 48 kHz stereo'; what is not known is left out ('PCM stereo'). */
export function describeAudio(audio: AudioFacts): string {
  const parts = [audio.codec];
  if (audio.sampleRate !== null && audio.sampleRate > 0) parts.push(formatSampleRate(audio.sampleRate));
  if (audio.channels !== null && audio.channels > 0) parts.push(formatChannels(audio.channels));
  return parts.join(' ');
}

const KIND_WORDS: Record<MediaFacts['kind'], string> = {
  video: 'Video',
  audio: 'Audio',
  image: 'Image',
  other: 'Document',
};

function sizeText(bytes: number): string {
  return Number.isSafeInteger(bytes) && bytes >= 0 ? formatBytes(bytes) : '';
}

/**
 * A file's facts in one line. Video: "1920×1080 · H.264 · 29.97 fps · 0:30 · AAC 48 kHz stereo" (or
 * "· no audio"); image: "3000×2000 · JPEG"; audio only: "AAC 48 kHz stereo · 3:12"; anything else: its
 * kind and size, "Document · 2.4 MB". Facts the file does not give are left out. Null (not read):
 * MEDIA_UNREADABLE.
 */
export function describeMediaFacts(facts: MediaFacts | null): string {
  if (facts === null) return MEDIA_UNREADABLE;
  const parts: string[] = [];
  const resolution =
    facts.width !== null && facts.height !== null ? formatResolution(facts.width, facts.height) : null;
  const duration = facts.durationSeconds !== null ? formatDuration(facts.durationSeconds) : null;
  switch (facts.kind) {
    case 'video':
      if (resolution) parts.push(resolution);
      if (facts.videoCodec) parts.push(facts.videoCodec);
      if (facts.fps !== null) parts.push(`${formatFrameRate(facts.fps)} fps`);
      if (duration) parts.push(duration);
      parts.push(facts.audio ? describeAudio(facts.audio) : 'no audio');
      break;
    case 'image':
      if (resolution) parts.push(resolution);
      if (facts.container) parts.push(facts.container);
      break;
    case 'audio':
      if (facts.audio) parts.push(describeAudio(facts.audio));
      if (duration) parts.push(duration);
      break;
    case 'other':
      break;
  }
  if (parts.length === 0 || (facts.kind === 'video' && parts.length === 1)) {
    // Nothing (or only "no audio") said what the file is: say its kind and size instead.
    return [KIND_WORDS[facts.kind], sizeText(facts.sizeBytes)].filter(Boolean).join(SEPARATOR);
  }
  return parts.join(SEPARATOR);
}
