/**
 * A file's media facts and an upload event's media spec: the contract between the reader (mediainfo.js in
 * the browser worker, the desktop engine, av-upload and the server probe), the spec rules, the API and the
 * screens. Pure types: importing them costs no bundle bytes and loads no WebAssembly.
 */

/** What a file is, as far as the reader could tell. */
export type MediaKind = 'video' | 'audio' | 'image' | 'other';

export interface AudioFacts {
  /** Display name, e.g. 'AAC', 'PCM', 'AC-3'. */
  codec: string;
  channels: number | null;
  /** Hz, e.g. 48000. */
  sampleRate: number | null;
}

export interface MediaFacts {
  kind: MediaKind;
  /** Display name of the container or image format, e.g. 'MP4', 'MOV', 'PNG', 'JPEG'; null when unknown. */
  container: string | null;
  /** Display name of the first video track's codec, e.g. 'H.264', 'HEVC', 'ProRes'; null without video. */
  videoCodec: string | null;
  /** Pixels of the first video track or of the image. */
  width: number | null;
  height: number | null;
  /** Frames per second of the first video track, e.g. 29.97; null when unknown or variable. */
  fps: number | null;
  /** Seconds; null when the container gives none. */
  durationSeconds: number | null;
  /** The first audio track; null when the file has none. */
  audio: AudioFacts | null;
  sizeBytes: number;
}

/** One allowed resolution. */
export interface MediaResolution {
  width: number;
  height: number;
}

/** What an event's screens need from one form type's files. Empty lists and nulls mean "any". */
export interface MediaSpec {
  containers: string[];
  videoCodecs: string[];
  resolutions: MediaResolution[];
  frameRates: number[];
  minDurationSeconds: number | null;
  maxDurationSeconds: number | null;
  /** 'none' requires no audio track; null accepts any audio or none. */
  audio: 'none' | { codecs: string[]; channels: number[]; sampleRates: number[] } | null;
  maxSizeBytes: number | null;
  /** Whether a mismatch stops the file ('block') or is recorded with it ('warn'). */
  onMismatch: 'block' | 'warn';
}

/** The outcome of checking a file's facts against a spec. */
export interface MediaCheck {
  /**
   * 'ok': meets the spec (or there is no spec); 'warn': mismatches, sent with them recorded; 'block':
   * mismatches on a blocking spec, cannot be sent; 'unreadable': facts could not be read, sent anyway.
   */
  verdict: 'ok' | 'warn' | 'block' | 'unreadable';
  /** One sentence per mismatch: "The screens need 1920×1080; this file is 1280×720." */
  issues: string[];
}

/** What a reader returns: the facts (null when the file could not be read) and what reading cost. */
export interface MediaReadResult {
  facts: MediaFacts | null;
  bytesRead: number;
  /** MediaInfoLib's own JSON, kept by the server as the raw record. */
  raw: unknown;
}

/** How a reader asks for bytes: any source (File, file handle, S3 ranged GET) can serve it. */
export type ReadChunk = (offset: number, length: number) => Promise<Uint8Array>;
