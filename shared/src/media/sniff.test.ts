import { describe, expect, it } from 'vitest';
import { mayBeKnownFormat, SNIFF_BYTES } from './sniff.js';

/**
 * The sniff says "no" only for a head of random-looking bytes with no signature or sync pattern in it;
 * everything MediaInfoLib could read, at its start or cut anywhere, is a "maybe". (That a "no" never hides
 * a file MediaInfoLib reads was also checked over a few thousand files of this machine and ffmpeg-made
 * media, cut at several offsets: #34.)
 */

/** Pseudo-random bytes (xorshift32, seeded: the same every run). */
function noise(length: number, seed = 2_463_534_242): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < bytes.length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

function noiseWith(at: number, bytes: number[], seed?: number): Uint8Array {
  const head = noise(SNIFF_BYTES, seed);
  head.set(bytes, at);
  return head;
}

/** An MPEG-1 Layer III frame header, 128 kb/s at 44.1 kHz (417 bytes a frame, no padding). */
const MP3_FRAME = [0xff, 0xfb, 0x90, 0x00];
const MP3_FRAME_BYTES = 417;

describe('mayBeKnownFormat', () => {
  it('is false for random bytes, whatever their seed', () => {
    for (const seed of [1, 2, 3, 42, 2_463_534_242, 0xdeadbeef]) {
      expect(mayBeKnownFormat(noise(SNIFF_BYTES, seed))).toBe(false);
    }
  });

  it('is false for random bytes after a few numbers of their own (an index, a length: no signature)', () => {
    for (const index of [0, 7, 300, 999]) {
      const head = noise(SNIFF_BYTES, index + 1);
      new DataView(head.buffer).setUint32(0, index);
      new DataView(head.buffer).setUint32(4, 1024 * 1024);
      expect(mayBeKnownFormat(head)).toBe(false);
    }
  });

  it.each([
    ['MP4', 4, ascii('ftyp')],
    ['QuickTime, mdat first', 4, ascii('mdat')],
    ['Matroska / WebM', 0, [0x1a, 0x45, 0xdf, 0xa3]],
    ['AVI / WAV / WebP', 0, ascii('RIFF')],
    ['MXF', 0, [0x06, 0x0e, 0x2b, 0x34]],
    [
      'MPEG program stream',
      0,
      [0x00, 0x00, 0x01, 0xba, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xc3, 0xf8, 0, 0, 1, 0xbb],
    ],
    ['H.264 elementary stream', 0, [0, 0, 0, 1, 0x67, 0x64, 0, 0x1f, 0xac, 0, 0, 0, 1, 0x68, 0xeb, 0xe3]],
    ['ICO', 0, [0, 0, 1, 0, 1, 0, 16, 16]],
    ['MP3 with ID3', 0, ascii('ID3')],
    ['FLAC', 0, ascii('fLaC')],
    ['Ogg', 0, ascii('OggS')],
    ['PNG', 0, [0x89, 0x50, 0x4e, 0x47]],
    ['JPEG', 0, [0xff, 0xd8, 0xff]],
    ['GIF', 0, ascii('GIF89a')],
    ['TIFF', 0, ascii('II*\0')],
    ['PSD', 0, ascii('8BPS')],
    ['BMP', 0, ascii('BM')],
    ['PDF', 0, ascii('%PDF-1.7')],
    ['ZIP (Office, Keynote)', 0, ascii('PK\x03\x04')],
    ['gzip', 0, [0x1f, 0x8b]],
    ['ISO 9660', 32769, ascii('CD001')],
  ])('is true for %s', (_name, at, bytes) => {
    expect(mayBeKnownFormat(noiseWith(at, bytes))).toBe(true);
  });

  it('is true for a transport stream cut in a packet (the sync byte every 188 bytes)', () => {
    const head = noise(SNIFF_BYTES);
    for (let at = 101; at < head.length; at += 188) head[at] = 0x47;
    expect(mayBeKnownFormat(head)).toBe(true);
  });

  it('is true for MP3 frames back to back, cut anywhere, and false for one sync word alone', () => {
    const head = noise(SNIFF_BYTES);
    head.set(MP3_FRAME, 5000);
    expect(mayBeKnownFormat(head)).toBe(false);
    head.set(MP3_FRAME, 5000 + MP3_FRAME_BYTES);
    expect(mayBeKnownFormat(head)).toBe(true);
  });

  it('is true for two MPEG start codes in the head, false for one', () => {
    const head = noise(SNIFF_BYTES);
    head.set([0x00, 0x00, 0x01, 0xe0], 9000);
    expect(mayBeKnownFormat(head)).toBe(false);
    head.set([0x00, 0x00, 0x01, 0xe0], 11_000);
    expect(mayBeKnownFormat(head)).toBe(true);
  });

  it.each([
    ['DTS', [0x7f, 0xfe, 0x80, 0x01]],
    ['DTS, 14-bit little-endian', [0xff, 0x1f, 0x00, 0xe8]],
    ['DTS-HD', [0x64, 0x58, 0x20, 0x25]],
    ['Dolby E in SMPTE ST 337', [0xf8, 0x72, 0x4e, 0x1f]],
    ['Dolby TrueHD', [0xf8, 0x72, 0x6f, 0xba]],
  ])('is true for a %s sync word anywhere in the head, first and last bytes included', (_name, word) => {
    for (const at of [0, 12_345, SNIFF_BYTES - 4]) expect(mayBeKnownFormat(noiseWith(at, word))).toBe(true);
  });

  it('is true for AC-3 frames cut anywhere (three sync words a frame apart), false for two', () => {
    for (const [sync, frame] of [
      [[0x0b, 0x77], 1536],
      [[0x77, 0x0b], 768],
    ] as const) {
      const head = noise(SNIFF_BYTES);
      head.set(sync, 7000);
      head.set(sync, 7000 + frame);
      expect(mayBeKnownFormat(head)).toBe(false);
      head.set(sync, 7000 + 2 * frame);
      expect(mayBeKnownFormat(head)).toBe(true);
    }
  });

  it('is true for text of any script, and for structured bytes it has no signature for', () => {
    const text = new TextEncoder().encode(
      '1\n00:00:01,000 --> 00:00:02,000\nBienvenue à Zürich, 東京\n\n'.repeat(800),
    );
    expect(mayBeKnownFormat(text)).toBe(true);
    const table = new Uint8Array(SNIFF_BYTES).map((_, i) => (i * 7) % 13);
    expect(mayBeKnownFormat(table)).toBe(true);
  });

  it('leaves a file under 1 KiB to MediaInfoLib', () => {
    expect(mayBeKnownFormat(noise(1000))).toBe(true);
  });
});
