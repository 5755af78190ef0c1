import { describe, expect, it } from 'vitest';
import {
  factsFromMediaInfo,
  readMediaFacts,
  READ_MAX_BYTES,
  READ_MIN_BYTES,
  UNRECOGNIZED_AFTER_BYTES,
} from './reader.js';
import { SNIFF_BYTES } from './sniff.js';
import type { ReadChunk } from './types.js';

/**
 * The reader's loop as a caller sees it, over files made here in memory (shared's tests touch no disk; the
 * committed fixtures are read in desktop/test/media-facts-reader.test.ts): what it reads, what it gives back,
 * and that a source that fails, stalls or would be read too far is an unreadable file, never an error.
 */

const ascii = (text: string) => new TextEncoder().encode(text);

function join(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A PCM WAV, 16-bit, of zeros: MediaInfoLib reads it from start to end (no seeks). */
function wav(seconds: number, sampleRate = 48_000, channels = 2): Uint8Array {
  const dataBytes = Math.round(seconds * sampleRate) * channels * 2;
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  header.set(ascii('RIFF'), 0);
  view.setUint32(4, 36 + dataBytes, true);
  header.set(ascii('WAVEfmt '), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  header.set(ascii('data'), 36);
  view.setUint32(40, dataBytes, true);
  return join(header, new Uint8Array(dataBytes));
}

/** An ISO BMFF box. */
function box(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(ascii(type), 4);
  out.set(body, 8);
  return out;
}

const FTYP = box('ftyp', join(ascii('isom'), new Uint8Array(4), ascii('isomiso2mp41')));

/**
 * An MP4 laid out as a camera writes one (ftyp, a large mdat, the moov at the end), with a moov MediaInfoLib
 * cannot use: the parser jumps over the mdat to the moov, and from box to box after it.
 */
function mp4WithMoovAtEnd(mdatBytes: number): Uint8Array {
  return join(
    FTYP,
    box('mdat', new Uint8Array(mdatBytes)),
    box('free', new Uint8Array(200_000)),
    box('moov', new Uint8Array(10)),
  );
}

interface Source {
  readChunk: ReadChunk;
  /** Each read the reader asked for: [offset, length]. */
  reads: [number, number][];
  asked: () => number;
}

/** A file held in memory, served as a source serves it, recording what was asked. */
function memory(
  bytes: Uint8Array,
  serve?: (offset: number, length: number, call: number) => Promise<Uint8Array>,
): Source {
  const reads: [number, number][] = [];
  return {
    reads,
    asked: () => reads.reduce((sum, [, length]) => sum + length, 0),
    readChunk: async (offset, length) => {
      reads.push([offset, length]);
      return serve ? serve(offset, length, reads.length) : bytes.subarray(offset, offset + length);
    },
  };
}

const overlaps = (reads: [number, number][]) =>
  reads.some(([a, la], i) => reads.some(([b, lb], j) => i !== j && a < b + lb && b < a + la));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const WAV_ONE_SECOND = {
  kind: 'audio',
  container: 'WAV',
  videoCodec: null,
  width: null,
  height: null,
  fps: null,
  durationSeconds: 1,
  audio: { codec: 'PCM', channels: 2, sampleRate: 48_000 },
};

describe('readMediaFacts', () => {
  it("reads a file's facts through its source, starting small and doubling while the parse reads on", async () => {
    const bytes = wav(20);
    const source = memory(bytes);
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(result.facts).toEqual({ ...WAV_ONE_SECOND, durationSeconds: 20, sizeBytes: bytes.length });
    expect(result.bytesRead).toBe(source.asked());
    expect(result.raw).toMatchObject({ media: { track: expect.any(Array) } });
    expect(source.reads[0]).toEqual([0, READ_MIN_BYTES]);
    const lengths = source.reads.map(([, length]) => length);
    expect(lengths.slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((n) => n * READ_MIN_BYTES));
    expect(Math.max(...lengths)).toBe(READ_MAX_BYTES);
  });

  it('never asks the source for the same bytes twice, on a file far larger than its cache', async () => {
    // 40 s of 48 kHz stereo is 7.3 MiB, read to its end: more blocks than the 4 MiB cache holds.
    const bytes = wav(40);
    const source = memory(bytes);
    const { facts } = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(facts?.durationSeconds).toBe(40);
    expect(overlaps(source.reads)).toBe(false);
  });

  it('follows the parser over a large mdat to the moov at the end, reading neither the mdat nor a byte twice', async () => {
    const bytes = mp4WithMoovAtEnd(20 * 1024 * 1024);
    const source = memory(bytes);
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    // This moov holds no track: an MP4 with nothing in it could not be read, and says so.
    expect(result.facts).toBeNull();
    expect(source.reads[0]?.[0]).toBe(0);
    expect(source.reads.some(([offset]) => offset > 20 * 1024 * 1024)).toBe(true);
    expect(result.bytesRead).toBeLessThan(bytes.length / 20);
    expect(overlaps(source.reads)).toBe(false);
  });

  /** Pseudo-random bytes (xorshift32, seeded: the same every run), as an encrypted archive looks. */
  function noise(length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    let x = 2_463_534_242;
    for (let i = 0; i < bytes.length; i += 1) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      bytes[i] = x & 0xff;
    }
    return bytes;
  }

  it('reads only the head of a file whose first bytes can be nothing MediaInfoLib knows', async () => {
    // 24 MiB of noise: without the sniff (sniff.ts) MediaInfoLib was started and read 4 MiB of it.
    const bytes = noise(24 * 1024 * 1024);
    const source = memory(bytes);
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(result).toEqual({ facts: null, bytesRead: SNIFF_BYTES, raw: null });
    expect(source.reads).toEqual([[0, SNIFF_BYTES]]);
  });

  it('stops reading a large file that no parser recognises, a few MiB in, instead of reading to the budget', async () => {
    // A head of structured bytes the sniff leaves to MediaInfoLib (a table of small numbers), then noise
    // as a renamed disk image holds: 24 MiB, of which reading to the 80 MiB budget would take it all.
    const bytes = noise(24 * 1024 * 1024);
    for (let i = 0; i < 4096; i += 1) bytes[i] = (i * 7) % 13;
    const source = memory(bytes);
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(result.facts).toBeNull();
    expect(result.bytesRead).toBeGreaterThanOrEqual(UNRECOGNIZED_AFTER_BYTES);
    expect(result.bytesRead).toBeLessThanOrEqual(UNRECOGNIZED_AFTER_BYTES + 2 * READ_MAX_BYTES);
  });

  it('gives facts null for bytes that are no media file', async () => {
    const bytes = ascii('Minutes of the meeting, renamed .mp4 by mistake');
    const result = await readMediaFacts({ size: bytes.length, readChunk: memory(bytes).readChunk });
    expect(result).toMatchObject({ facts: null, bytesRead: bytes.length });
  });

  it('gives facts null without asking the source for an empty file or a size that is no size', async () => {
    for (const size of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
      const source = memory(new Uint8Array(0));
      expect(await readMediaFacts({ size, readChunk: source.readChunk })).toEqual({
        facts: null,
        bytesRead: 0,
        raw: null,
      });
      expect(source.reads).toEqual([]);
    }
  });

  it('reads several files at once, each with its own facts', async () => {
    const files = [1, 2, 3, 4].map((seconds) => wav(seconds));
    const results = await Promise.all(
      files.map((bytes) => readMediaFacts({ size: bytes.length, readChunk: memory(bytes).readChunk })),
    );
    expect(results.map((r) => r.facts?.durationSeconds)).toEqual([1, 2, 3, 4]);
    // And again, with the instances the first round left idle.
    const again = await readMediaFacts({ size: files[0]!.length, readChunk: memory(files[0]!).readChunk });
    expect(again.facts).toEqual({ ...WAV_ONE_SECOND, sizeBytes: files[0]!.length });
  });

  it('loads the WebAssembly from the wasmUrl given, and throws when there is none there', async () => {
    const wasmUrl = new URL('../MediaInfoModule.wasm', import.meta.resolve('mediainfo.js')).pathname;
    const bytes = wav(1);
    const result = await readMediaFacts({ size: bytes.length, readChunk: memory(bytes).readChunk, wasmUrl });
    expect(result.facts).toEqual({ ...WAV_ONE_SECOND, sizeBytes: bytes.length });
    await expect(
      readMediaFacts({
        size: bytes.length,
        readChunk: memory(bytes).readChunk,
        wasmUrl: '/nowhere/MediaInfoModule.wasm',
      }),
    ).rejects.toThrow();
  });
});

describe('a source that fails is an unreadable file, never an error', () => {
  const bytes = wav(3);

  it('a read that throws part of the way through', async () => {
    const source = memory(bytes, async (offset, length, call) => {
      if (call === 3) throw new Error('connection reset');
      return bytes.subarray(offset, offset + length);
    });
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(result).toEqual({ facts: null, bytesRead: 3 * READ_MIN_BYTES, raw: null });
  });

  it('a read that comes back short (the file shrank while it was read)', async () => {
    const source = memory(bytes, async (offset, length) =>
      bytes.subarray(offset, offset + Math.min(length, 1000)),
    );
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk });
    expect(result).toEqual({ facts: null, bytesRead: 1000, raw: null });
  });

  it('a file whose reading would go past the read budget: nothing past it is asked for', async () => {
    const budget = 300 * 1024;
    const source = memory(bytes);
    const result = await readMediaFacts({
      size: bytes.length,
      readChunk: source.readChunk,
      maxBytes: budget,
    });
    expect(result.facts).toBeNull();
    expect(source.asked()).toBeLessThanOrEqual(budget);
    expect(result.bytesRead).toBe(source.asked());
  });

  it('a source that never answers, once the time is up', async () => {
    const source = memory(bytes, () => new Promise<Uint8Array>(() => undefined));
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk, timeoutMs: 100 });
    expect(result).toEqual({ facts: null, bytesRead: 0, raw: null });
  });

  it('a slow source: once the time is up, it is asked for nothing more', async () => {
    const source = memory(bytes, async (offset, length) => {
      await sleep(80);
      return bytes.subarray(offset, offset + length);
    });
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk, timeoutMs: 50 });
    expect(result.facts).toBeNull();
    // The read under way when the time ran out comes back, and is the last one.
    await sleep(200);
    expect(source.reads).toHaveLength(1);
  });

  it('with timeoutMs 0 a slow source is waited for', async () => {
    const source = memory(bytes, async (offset, length) => {
      await sleep(20);
      return bytes.subarray(offset, offset + length);
    });
    const result = await readMediaFacts({ size: bytes.length, readChunk: source.readChunk, timeoutMs: 0 });
    expect(result.facts?.durationSeconds).toBe(3);
  });
});

describe('factsFromMediaInfo', () => {
  const general = (fields: Record<string, unknown>) => ({ '@type': 'General', ...fields });
  const facts = (...track: unknown[]) => factsFromMediaInfo({ media: { track } }, 1234);

  it('is null when MediaInfoLib could not tell what the file is', () => {
    expect(factsFromMediaInfo(null, 1)).toBeNull();
    expect(factsFromMediaInfo({}, 1)).toBeNull();
    expect(factsFromMediaInfo({ media: { track: 'General' } }, 1)).toBeNull();
    expect(facts({ '@type': 'Video', Format: 'AVC' })).toBeNull();
    expect(facts(general({}))).toBeNull();
    expect(facts(general({ Format: '  ' }))).toBeNull();
    // A video container with no track in it: the moov was never reached.
    expect(facts(general({ Format: 'MPEG-4' }))).toBeNull();
    expect(facts(general({ Format: 'Matroska' }), null)).toBeNull();
  });

  it('tells MP4, MOV and M4A apart, all MPEG-4 to MediaInfoLib', () => {
    const audio = { '@type': 'Audio', Format: 'AAC' };
    const container = (fields: Record<string, unknown>) =>
      facts(general({ Format: 'MPEG-4', ...fields }), audio)?.container;
    expect(container({ CodecID: 'isom' })).toBe('MP4');
    expect(container({})).toBe('MP4');
    expect(container({ Format_Profile: 'QuickTime' })).toBe('MOV');
    expect(container({ CodecID: 'qt  ' })).toBe('MOV');
    expect(container({ CodecID: 'M4A ' })).toBe('M4A');
    expect(container({ CodecID: 42 })).toBe('MP4');
  });

  it('reads a video track, with the frame rate from its exact ratio when there is one', () => {
    const result = facts(
      general({ Format: 'MPEG-4', Duration: '2.002' }),
      {
        '@type': 'Video',
        Format: 'AVC',
        Width: '1920',
        Height: 1080,
        FrameRate_Num: '30000',
        FrameRate_Den: '1001',
        FrameRate: '29.970',
      },
      { '@type': 'Audio', Format: 'AAC', Channels: '2', SamplingRate: '48000' },
    );
    expect(result).toEqual({
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1920,
      height: 1080,
      fps: 29.97,
      durationSeconds: 2.002,
      audio: { codec: 'AAC', channels: 2, sampleRate: 48_000 },
      sizeBytes: 1234,
    });
  });

  it('takes FrameRate without a ratio, gives no frame rate for a variable one, and the duration from the tracks', () => {
    const video = (fields: Record<string, unknown>) =>
      facts(general({ Format: 'MPEG-4' }), { '@type': 'Video', Format: 'HEVC', ...fields });
    expect(video({ FrameRate: '25.000', Duration: 3 })).toMatchObject({
      fps: 25,
      durationSeconds: 3,
      audio: null,
    });
    expect(video({ FrameRate_Num: 60 })).toMatchObject({ fps: null, durationSeconds: null });
    expect(video({ FrameRate_Mode: 'VFR', FrameRate: '29.97' })?.fps).toBeNull();
    expect(video({ Width: 'wide', Height: -1, FrameRate: true })).toMatchObject({
      width: null,
      height: null,
      fps: null,
    });
    const fromAudio = facts(general({ Format: 'Wave' }), {
      '@type': 'Audio',
      Format: 'PCM',
      Duration: '1.5',
      Channels: 'two',
    });
    expect(fromAudio).toMatchObject({
      kind: 'audio',
      durationSeconds: 1.5,
      audio: { codec: 'PCM', channels: null },
    });
  });

  it('an audio track with no format is no audio', () => {
    expect(facts(general({ Format: 'Wave' }), { '@type': 'Audio' }, { '@type': 'Text' })).toMatchObject({
      kind: 'audio',
      audio: null,
    });
  });

  it('reads an image, and a file of another kind with no duration', () => {
    expect(
      facts(general({ Format: 'PNG', Duration: 5 }), {
        '@type': 'Image',
        Format: 'PNG',
        Width: 3000,
        Height: '2000',
      }),
    ).toEqual({
      kind: 'image',
      container: 'PNG',
      videoCodec: null,
      width: 3000,
      height: 2000,
      fps: null,
      durationSeconds: null,
      audio: null,
      sizeBytes: 1234,
    });
    expect(facts(general({ Format: 'ZIP', Duration: 5 }))).toMatchObject({
      kind: 'other',
      container: 'ZIP',
      width: null,
      durationSeconds: null,
    });
  });
});
