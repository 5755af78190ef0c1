/**
 * Reads a file's media facts with mediainfo.js (MediaInfoLib in WebAssembly), asking its source only for
 * the bytes MediaInfoLib wants: the browser worker (Blob.slice), the desktop engine and av-upload (a file
 * handle) and the server (local disk, S3 ranged GETs) all read through this one loop. Imported by the
 * '@avp/shared/media-reader' subpath only, never by '@avp/shared', so no page that does not read files
 * loads the library or its WebAssembly.
 *
 * Why not mediainfo.js's own analyzeData: it reads a fixed chunkSize after every seek. MediaInfoLib seeks
 * a lot (to a moov at the end, back to the first frames in mdat, from box to box), so a large chunk costs
 * megabytes per seek and a small one costs a round trip per 64 KiB (buzz/mediainfo.js#108: 1.26 GB of a
 * 6.8 GB file read with 256 KiB chunks, 18 MB with larger ones). Here a read after a seek starts small and
 * doubles while MediaInfoLib keeps reading on from where the last read ended (a sequential parse of the
 * first frames), and bytes already read are served again from a small cache of aligned blocks (MediaInfoLib
 * often asks for a range it has just been given, e.g. after skipping back from the moov).
 *
 * A file MediaInfoLib cannot make sense of, one whose moov is over its 64 MB buffer
 * (MediaArea/MediaInfoLib#571), a read that fails or the time running out all give facts null: "Could not
 * read this file's details", never an error.
 */
import mediaInfoFactory from 'mediainfo.js';
import type { MediaInfo } from 'mediainfo.js';
import { audioCodecDisplayName, containerDisplayName, videoCodecDisplayName } from './names.js';
import { mayBeKnownFormat, SNIFF_BYTES } from './sniff.js';
import type { MediaFacts, MediaKind, MediaReadResult, ReadChunk } from './types.js';

/** The first read after a seek (and at the start). */
export const READ_MIN_BYTES = 64 * 1024;
/** The largest single read: a sequential parse doubles up to this. */
export const READ_MAX_BYTES = 1024 * 1024;
/** Reads are made of blocks of this size, aligned, so that a re-read range is found in the cache. */
const BLOCK_BYTES = 64 * 1024;
/** How many blocks the cache keeps (4 MiB). */
const CACHE_BLOCKS = 64;
/**
 * Stop reading past this many bytes: MediaInfoLib gives up on a moov over its 64 MB buffer anyway
 * (MediaInfoLib#571), and a parser wandering through a damaged file must not read a 100 GB file whole.
 */
export const READ_BUDGET_BYTES = 80 * 1024 * 1024;
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

export interface ReadMediaFactsInput {
  size: number;
  readChunk: ReadChunk;
  /**
   * Where MediaInfoModule.wasm is: a URL in a browser or a worker (the web build's asset URL), a file path
   * in Node. Absent: next to mediainfo.js's own module, which is where it is in Node.
   */
  wasmUrl?: string;
  /** Gives up (facts null) when the whole reading takes longer. Default DEFAULT_READ_TIMEOUT_MS; 0: never. */
  timeoutMs?: number;
  /** Gives up (facts null) after reading this many bytes. Default READ_BUDGET_BYTES. */
  maxBytes?: number;
}

type Instance = MediaInfo<'JSON'>;

// Idle instances by WebAssembly location: making one compiles and instantiates the module (tens of ms),
// so a reader that reads many files keeps a couple; each serves one analysis at a time.
const idle = new Map<string, Instance[]>();
const IDLE_MAX = 2;

async function takeInstance(wasmUrl: string | undefined): Promise<Instance> {
  const pool = idle.get(wasmUrl ?? '');
  const ready = pool?.pop();
  if (ready) return ready;
  return mediaInfoFactory({
    format: 'JSON',
    // The module asks locateFile for one file only, MediaInfoModule.wasm.
    ...(wasmUrl === undefined ? {} : { locateFile: () => wasmUrl }),
  });
}

function giveBack(wasmUrl: string | undefined, instance: Instance): void {
  const key = wasmUrl ?? '';
  const pool = idle.get(key) ?? [];
  if (pool.length >= IDLE_MAX) {
    instance.close();
    return;
  }
  pool.push(instance);
  idle.set(key, pool);
}

class OutOfTime extends Error {}
class OverBudget extends Error {}

/** The source's reads through an LRU cache of aligned blocks, counting the bytes the source gave. */
class BlockReader {
  bytesRead = 0;
  private readonly blocks = new Map<number, Uint8Array>();

  constructor(
    private readonly size: number,
    private readonly source: ReadChunk,
    private readonly budget: number,
    private readonly deadline: number,
  ) {}

  private check(): void {
    if (this.deadline > 0 && Date.now() > this.deadline) throw new OutOfTime();
  }

  private remember(index: number, block: Uint8Array): void {
    this.blocks.delete(index);
    this.blocks.set(index, block);
    while (this.blocks.size > CACHE_BLOCKS) {
      const oldest = this.blocks.keys().next().value as number;
      this.blocks.delete(oldest);
    }
  }

  /** Fetches blocks [first, last] that are missing, one source read per run of missing blocks. */
  private async fetch(first: number, last: number): Promise<void> {
    let index = first;
    while (index <= last) {
      if (this.blocks.has(index)) {
        this.remember(index, this.blocks.get(index)!);
        index++;
        continue;
      }
      let end = index;
      while (end + 1 <= last && !this.blocks.has(end + 1)) end++;
      const start = index * BLOCK_BYTES;
      const length = Math.min((end + 1) * BLOCK_BYTES, this.size) - start;
      if (this.bytesRead + length > this.budget) throw new OverBudget();
      this.check();
      const bytes = await this.source(start, length);
      this.check();
      this.bytesRead += bytes.length;
      if (bytes.length !== length) throw new Error(`Short read at ${start}: ${bytes.length} of ${length}`);
      for (let i = index; i <= end; i++) {
        const from = (i - index) * BLOCK_BYTES;
        this.remember(i, bytes.subarray(from, Math.min(from + BLOCK_BYTES, bytes.length)));
      }
      index = end + 1;
    }
  }

  /** Bytes [offset, offset + length), within the file: analyze never asks for none or for more. */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const end = offset + length;
    const first = Math.floor(offset / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    await this.fetch(first, last);
    const out = new Uint8Array(end - offset);
    for (let i = first; i <= last; i++) {
      const block = this.blocks.get(i)!;
      const blockStart = i * BLOCK_BYTES;
      const from = Math.max(offset, blockStart) - blockStart;
      const to = Math.min(end, blockStart + block.length) - blockStart;
      out.set(block.subarray(from, to), blockStart + from - offset);
    }
    return out;
  }
}

/**
 * Feeds MediaInfoLib until it has what it wants, following its seeks. The loop is mediainfo.js's
 * analyzeData (0.3.8) with the read sizes chosen here: a read after a seek starts at READ_MIN_BYTES
 * (rounded up to a block boundary) and doubles while reads follow on, up to READ_MAX_BYTES.
 */
/** Open_Buffer_Continue's status bits (MediaInfoLib): a parser has accepted the data; parsing is done. */
const ACCEPTED = 0x01;
const FINALIZED = 0x08;

/**
 * Bytes read from the file's start with no parser of MediaInfoLib accepting them: past this the file is one
 * it does not know (random bytes, an encrypted archive), and reading on to the budget would only spend CPU
 * (about 110 ms per MiB on a server that reads every completed upload). Every format it knows is accepted
 * within its first kilobytes, a moov-last MP4 included (its ftyp comes first).
 */
export const UNRECOGNIZED_AFTER_BYTES = 4 * 1024 * 1024;

interface RawModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  _mi_open_buffer_continue(ptr: number, data: number, size: number): number;
  HEAPU8: Uint8Array;
}

/**
 * Open_Buffer_Continue with its whole status. mediainfo.js's own method keeps only the Finalized bit, and
 * the Accepted bit is what tells a file no parser knows from one still being parsed; so the status is read
 * from the module the way that method does it (mediainfo.js 0.3: `mediainfoModule`, `ptr`). A later
 * mediainfo.js laid out otherwise would fail every read here, which the fixture tests
 * (desktop/test/media-facts-reader.test.ts) would show at once.
 */
function continueWith(mi: Instance, data: Uint8Array): number {
  const { mediainfoModule: module, ptr } = mi as unknown as { mediainfoModule: RawModule; ptr: number };
  const at = module._malloc(data.length);
  try {
    // HEAPU8 is read after _malloc: growing the memory replaces the view.
    module.HEAPU8.set(data, at);
    return module._mi_open_buffer_continue(ptr, at, data.length);
  } finally {
    module._free(at);
  }
}

async function analyze(mi: Instance, size: number, reader: BlockReader): Promise<string> {
  const POSITION_ONLY = -1;
  let offset = 0;
  let lastSeekTo = -1;
  let want = READ_MIN_BYTES;
  mi.reset();
  mi.openBufferInit(size, 0);
  while (offset < size) {
    // To the next block boundary, so the next read starts aligned and the cache lines up.
    const aligned = Math.ceil((offset + want) / BLOCK_BYTES) * BLOCK_BYTES - offset;
    // At least one byte (offset < size, aligned > 0): a source that gives fewer has thrown in read().
    const data = await reader.read(offset, Math.min(aligned, size - offset));
    const status = continueWith(mi, data);
    const finished = (status & FINALIZED) !== 0;
    if ((status & ACCEPTED) === 0 && reader.bytesRead >= UNRECOGNIZED_AFTER_BYTES) break;
    const seekTo = mi.openBufferContinueGotoGet();
    if (seekTo !== -1) {
      // Past the end, or the same target twice without progress: the parser cannot be satisfied.
      if (seekTo === lastSeekTo || seekTo >= size) break;
      offset = seekTo;
      lastSeekTo = seekTo;
      want = READ_MIN_BYTES;
      mi.openBufferInit(finished ? size : POSITION_ONLY, seekTo);
      continue;
    }
    lastSeekTo = -1;
    offset += data.length;
    if (finished) break;
    want = Math.min(want * 2, READ_MAX_BYTES);
  }
  mi.openBufferFinalize();
  return mi.inform();
}

type Track = Record<string, unknown>;

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  return null;
}

function positive(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function whole(value: unknown): number | null {
  const n = positive(value);
  return n === null ? null : Math.round(n);
}

/** Containers a file is a video or audio file in: with no track found in one, the file was not read. */
const AV_CONTAINERS = new Set([
  'MP4',
  'MOV',
  'MKV',
  'WebM',
  'AVI',
  'MXF',
  'MPEG-TS',
  'MPEG-PS',
  'WMV',
  'FLV',
  'M4A',
  'MP3',
  'WAV',
  'AIFF',
]);

function containerOf(general: Track): string | null {
  const format = text(general['Format']);
  if (format === null) return null;
  if (format === 'MPEG-4') {
    // MediaInfoLib says 'MPEG-4' for both; QuickTime's brand is 'qt  ' (profile 'QuickTime').
    const profile = text(general['Format_Profile']) ?? '';
    const brand = text(general['CodecID']) ?? '';
    if (profile === 'QuickTime' || brand.startsWith('qt')) return 'MOV';
    if (brand.startsWith('M4A')) return 'M4A';
    return 'MP4';
  }
  return containerDisplayName(format);
}

/** Frames per second, to three decimals, from the exact ratio when MediaInfoLib gives one. */
function frameRate(video: Track): number | null {
  if (text(video['FrameRate_Mode']) === 'VFR') return null;
  const num = positive(video['FrameRate_Num']);
  const den = positive(video['FrameRate_Den']);
  const fps = num !== null && den !== null ? num / den : positive(video['FrameRate']);
  return fps === null ? null : Math.round(fps * 1000) / 1000;
}

/** Seconds, to the millisecond. */
function duration(...tracks: (Track | undefined)[]): number | null {
  for (const track of tracks) {
    const seconds = track ? positive(track['Duration']) : null;
    if (seconds !== null) return Math.round(seconds * 1000) / 1000;
  }
  return null;
}

/** MediaInfoLib's answer as MediaFacts; null when it could not tell what the file is. */
export function factsFromMediaInfo(result: unknown, sizeBytes: number): MediaFacts | null {
  const tracks = (result as { media?: { track?: unknown } } | null)?.media?.track;
  if (!Array.isArray(tracks)) return null;
  const of = (type: string) => tracks.find((t: Track) => t?.['@type'] === type) as Track | undefined;
  const general = of('General');
  if (!general) return null;
  const container = containerOf(general);
  if (container === null) return null;
  const video = of('Video');
  const audioTrack = of('Audio');
  const image = of('Image');
  const kind: MediaKind = video ? 'video' : audioTrack ? 'audio' : image ? 'image' : 'other';
  // A video container with no track in it: a truncated file, a moov never reached or too big to hold.
  if (kind === 'other' && AV_CONTAINERS.has(container)) return null;
  const pictured = video ?? (kind === 'image' ? image : undefined);
  const videoFormat = video ? text(video['Format']) : null;
  const audioFormat = audioTrack ? text(audioTrack['Format']) : null;
  return {
    kind,
    container,
    videoCodec: videoFormat === null ? null : videoCodecDisplayName(videoFormat),
    width: pictured ? whole(pictured['Width']) : null,
    height: pictured ? whole(pictured['Height']) : null,
    fps: video ? frameRate(video) : null,
    durationSeconds: kind === 'video' || kind === 'audio' ? duration(general, video, audioTrack) : null,
    audio:
      audioTrack && audioFormat !== null
        ? {
            codec: audioCodecDisplayName(audioFormat),
            channels: whole(audioTrack['Channels']),
            sampleRate: whole(audioTrack['SamplingRate']),
          }
        : null,
    sizeBytes,
  };
}

/**
 * Reads a file's media facts. Never throws for a bad file or a failing read: facts null, with what was
 * read so far in bytesRead. Throws only when the library itself cannot be loaded (a wrong wasmUrl).
 */
export async function readMediaFacts(input: ReadMediaFactsInput): Promise<MediaReadResult> {
  const { size, readChunk, wasmUrl } = input;
  const timeoutMs = input.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  if (!Number.isSafeInteger(size) || size <= 0) return { facts: null, bytesRead: 0, raw: null };
  const reader = new BlockReader(
    size,
    readChunk,
    input.maxBytes ?? READ_BUDGET_BYTES,
    timeoutMs > 0 ? Date.now() + timeoutMs : 0,
  );
  const unreadable = () => ({ facts: null, bytesRead: reader.bytesRead, raw: null });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A source that never answers must not hold the file up: the race ends it at the deadline (the
  // instance is then dropped, as its analysis may still be running).
  const deadline =
    timeoutMs > 0
      ? new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new OutOfTime()), timeoutMs);
        })
      : null;
  const inTime = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return deadline ? Promise.race([work, deadline]) : work;
  };
  deadline?.catch(() => undefined);
  try {
    // The head is MediaInfoLib's own first read (one cached block), so a file it goes on to read costs
    // no more bytes; one that can be nothing it knows never starts it (sniff.ts).
    try {
      if (!mayBeKnownFormat(await inTime(reader.read(0, Math.min(SNIFF_BYTES, size))))) return unreadable();
    } catch {
      return unreadable();
    }
    const instance = await takeInstance(wasmUrl);
    try {
      const raw: unknown = JSON.parse(await inTime(analyze(instance, size, reader)));
      giveBack(wasmUrl, instance);
      return { facts: factsFromMediaInfo(raw, size), bytesRead: reader.bytesRead, raw };
    } catch {
      instance.close();
      return unreadable();
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
