import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeMediaFacts, MEDIA_UNREADABLE } from '@avp/shared';
import type { MediaFacts } from '@avp/shared';
import { readFileFacts, readMediaFacts, READ_BUDGET_BYTES } from '@avp/shared/media-reader';

/**
 * The shared media reader (shared/src/media/reader.ts) in Node, as the desktop engine, av-upload and the
 * server use it, over every committed fixture (test/fixtures/media, `npm run media:fixtures`). Here rather
 * than in shared because shared's tests, like its code, may not touch node:* (eslint).
 */
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/media/', import.meta.url));

interface Fixture {
  name: string;
  size: number;
  facts: MediaFacts | null;
}
const fixtures = JSON.parse(await readFile(`${FIXTURES}fixtures.json`, 'utf8')) as Fixture[];

/** A file held in memory, read as a source is: counting the bytes asked for. */
function memorySource(bytes: Uint8Array) {
  const source = {
    asked: 0,
    readChunk: async (offset: number, length: number) => {
      source.asked += length;
      return bytes.subarray(offset, offset + length);
    },
  };
  return source;
}

interface Box {
  type: string;
  start: number;
  size: number;
}
function topBoxes(bytes: Uint8Array): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = view.getUint32(at);
    boxes.push({ type: new TextDecoder().decode(bytes.subarray(at + 4, at + 8)), start: at, size });
    at += size;
  }
  return boxes;
}

/**
 * A virtual file of `total` bytes: a clip with its moov at the end, whose mdat is grown (zeros) so that
 * the moov lands at the end of `total`. ffmpeg writes an 8-byte 'free' before 'mdat' for exactly this: the
 * two become one mdat header with a 64-bit size, so every sample keeps its offset.
 */
function grownClip(clip: Uint8Array, total: number) {
  const boxes = topBoxes(clip);
  const free = boxes.find((b) => b.type === 'free')!;
  const mdat = boxes.find((b) => b.type === 'mdat')!;
  const moov = boxes.find((b) => b.type === 'moov')!;
  expect(free.start + 8).toBe(mdat.start);
  expect(moov.start).toBeGreaterThan(mdat.start);
  const head = clip.slice(0, mdat.start + mdat.size);
  const header = new DataView(head.buffer, free.start, 16);
  const moovAt = total - moov.size;
  header.setUint32(0, 1);
  head.set(new TextEncoder().encode('mdat'), free.start + 4);
  header.setBigUint64(8, BigInt(moovAt - free.start));
  const tail = clip.subarray(moov.start, moov.start + moov.size);
  const source = {
    asked: 0,
    readChunk: async (offset: number, length: number) => {
      source.asked += length;
      const out = new Uint8Array(length);
      const end = offset + length;
      if (offset < head.length) out.set(head.subarray(offset, Math.min(end, head.length)), 0);
      if (end > moovAt) {
        const from = Math.max(offset, moovAt);
        out.set(tail.subarray(from - moovAt, end - moovAt), from - offset);
      }
      return out;
    },
  };
  return source;
}

describe('readMediaFacts on every fixture', () => {
  it.each(fixtures)('$name', async ({ name, size, facts }) => {
    const bytes = new Uint8Array(await readFile(`${FIXTURES}${name}`));
    expect(bytes.length).toBe(size);
    const source = memorySource(bytes);
    const result = await readMediaFacts({ size, readChunk: source.readChunk });
    expect(result.bytesRead).toBe(source.asked);
    expect(result.bytesRead).toBeLessThanOrEqual(size);
    if (facts === null) {
      expect(result.facts).toBeNull();
      expect(describeMediaFacts(result.facts)).toBe(MEDIA_UNREADABLE);
      return;
    }
    const { durationSeconds, ...rest } = facts;
    expect(result.facts).toMatchObject(rest);
    // Containers round a clip's length to their time scale (2.002 s for 60 frames at 29.97).
    if (durationSeconds === null) expect(result.facts!.durationSeconds).toBeNull();
    else expect(result.facts!.durationSeconds).toBeCloseTo(durationSeconds, 1);
    expect(result.raw).toMatchObject({ media: { track: expect.any(Array) } });
  });

  it('words the fixtures as a file row shows them', async () => {
    const line = async (name: string) =>
      describeMediaFacts((await readFileFacts(`${FIXTURES}${name}`)).facts);
    expect(await line('h264-1920x1080-29.97-aac-faststart.mp4')).toBe(
      '1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo',
    );
    expect(await line('prores-640x360-25-pcm.mov')).toBe(
      '640×360 · ProRes · 25 fps · 0:01 · PCM 48 kHz stereo',
    );
    expect(await line('h264-3840x2160-29.97.mov')).toBe('3840×2160 · H.264 · 29.97 fps · 0:01 · no audio');
    expect(await line('still-3000x2000.jpg')).toBe('3000×2000 · JPEG');
    expect(await line('not-a-video.mp4')).toBe(MEDIA_UNREADABLE);
  });
});

describe('readFileFacts', () => {
  it('reads a file on disk with positional reads, not all of it when it need not', async () => {
    const result = await readFileFacts(`${FIXTURES}prores-640x360-25-pcm.mov`);
    expect(result.facts).toMatchObject({ container: 'MOV', videoCodec: 'ProRes', sizeBytes: 769117 });
    expect(result.bytesRead).toBeLessThan(769117);
  });

  it('says a missing file or an empty one could not be read', async () => {
    expect(await readFileFacts(`${FIXTURES}no-such-file.mp4`)).toEqual({
      facts: null,
      bytesRead: 0,
      raw: null,
    });
    expect((await readMediaFacts({ size: 0, readChunk: async () => new Uint8Array(0) })).facts).toBeNull();
  });
});

describe('a 100 GB file costs megabytes', () => {
  it('reads the facts of a clip whose mdat is grown to 100 GB, moov at the end', async () => {
    const clip = new Uint8Array(await readFile(`${FIXTURES}h264-1280x720-25-aac.mp4`));
    const total = 100 * 1024 ** 3;
    const source = grownClip(clip, total);
    const result = await readMediaFacts({ size: total, readChunk: source.readChunk });
    expect(result.facts).toMatchObject({
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1280,
      height: 720,
      fps: 25,
      sizeBytes: total,
      audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
    });
    expect(result.bytesRead).toBe(source.asked);
    expect(result.bytesRead).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("a moov over MediaInfoLib's 64 MB buffer (MediaArea/MediaInfoLib#571)", () => {
  /** The clip with a `bigBytes` 'udta' box (zeros) as the first child of its moov, which is at the end. */
  function bigMoov(clip: Uint8Array, bigBytes: number) {
    const moov = topBoxes(clip).find((b) => b.type === 'moov')!;
    const head = clip.subarray(0, moov.start);
    const children = clip.subarray(moov.start + 8, moov.start + moov.size);
    const prefix = new Uint8Array(16);
    const view = new DataView(prefix.buffer);
    view.setUint32(0, 8 + bigBytes + children.length);
    prefix.set(new TextEncoder().encode('moov'), 4);
    view.setUint32(8, bigBytes);
    prefix.set(new TextEncoder().encode('udta'), 12);
    const childrenAt = head.length + 8 + bigBytes;
    const size = childrenAt + children.length;
    const readChunk = async (offset: number, length: number) => {
      const out = new Uint8Array(length);
      const put = (part: Uint8Array, at: number) => {
        const from = Math.max(offset, at);
        const to = Math.min(offset + length, at + part.length);
        if (to > from) out.set(part.subarray(from - at, to - at), from - offset);
      };
      put(head, 0);
      put(prefix, head.length);
      put(children, childrenAt);
      return out;
    };
    return { size, readChunk };
  }

  it('gives facts null, having read no more than the budget; a 60 MB box still reads', async () => {
    const clip = new Uint8Array(await readFile(`${FIXTURES}h264-1280x720-25-aac.mp4`));
    const over = await readMediaFacts(bigMoov(clip, 70 * 1024 * 1024));
    expect(over.facts).toBeNull();
    expect(over.bytesRead).toBeLessThanOrEqual(READ_BUDGET_BYTES);
    const under = await readMediaFacts(bigMoov(clip, 60 * 1024 * 1024));
    expect(under.facts).toMatchObject({ width: 1280, height: 720, videoCodec: 'H.264' });
  });
});

describe('a source that fails is an unreadable file, never an error', () => {
  const clip = () => readFile(`${FIXTURES}h264-1280x720-25-aac.mp4`).then((b) => new Uint8Array(b));

  it('a read that throws', async () => {
    const bytes = await clip();
    let reads = 0;
    const result = await readMediaFacts({
      size: bytes.length,
      readChunk: async (offset, length) => {
        if (++reads > 1) throw new Error('EIO');
        return bytes.subarray(offset, offset + length);
      },
    });
    expect(result.facts).toBeNull();
    expect(result.bytesRead).toBeGreaterThan(0);
  });

  it('a read that comes back short (the file shrank)', async () => {
    const bytes = await clip();
    const result = await readMediaFacts({
      size: bytes.length * 2,
      readChunk: async (offset, length) => bytes.subarray(offset, offset + length),
    });
    expect(result.facts).toBeNull();
  });

  it('a source that never answers, once the time is up', async () => {
    const bytes = await clip();
    const result = await readMediaFacts({
      size: bytes.length,
      timeoutMs: 200,
      readChunk: (offset, length) =>
        offset === 0
          ? Promise.resolve(bytes.subarray(offset, length))
          : new Promise<Uint8Array>(() => undefined),
    });
    expect(result.facts).toBeNull();
  });

  it('a parse that would read more than its budget', async () => {
    const bytes = await clip();
    const result = await readMediaFacts({
      size: bytes.length,
      maxBytes: 64 * 1024,
      readChunk: async (offset, length) => bytes.subarray(offset, offset + length),
    });
    expect(result.facts).toBeNull();
    expect(result.bytesRead).toBeLessThanOrEqual(64 * 1024);
    expect(READ_BUDGET_BYTES).toBeGreaterThan(64 * 1024 * 1024);
  });

  it('and reading goes on working after each of these', async () => {
    const result = await readFileFacts(`${FIXTURES}h264-1280x720-25-aac.mp4`);
    expect(result.facts).toMatchObject({ width: 1280, height: 720 });
  });
});
