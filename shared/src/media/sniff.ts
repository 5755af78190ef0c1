/**
 * Whether a file's first bytes could be anything MediaInfoLib knows, before it is started (#34). Starting it
 * costs tens of milliseconds of WebAssembly even for 64 KiB, and a file it does not know costs about
 * 110 ms per MiB more until the reader gives up (reader.ts: UNRECOGNIZED_AFTER_BYTES), all for facts null.
 *
 * The answer is "no" only when it is sure: the head looks like random, compressed or encrypted bytes
 * (nearly every byte value in its first 4 KiB, not text) and holds no signature or sync pattern of a
 * format MediaInfoLib reads: containers, pictures, sound, elementary streams found by their sync words
 * (a transport or program stream, MPEG audio, ADTS, AC-3 cut anywhere), and the documents and archives it
 * names ('other'). Everything else, structured or text, goes to MediaInfoLib as before, so a "maybe" only
 * costs what reading cost before. A "no" gives exactly what MediaInfoLib gives such a file: facts null.
 */

/** How much of the file's start the sniff looks at (ISO 9660's descriptor is at 32 KiB). */
export const SNIFF_BYTES = 64 * 1024;

/** Heads shorter than this are left to MediaInfoLib: too few bytes to tell random from structured. */
const MIN_SNIFF_BYTES = 1024;
const DISTINCT_WINDOW = 4096;

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

/** [offset, bytes] of the formats MediaInfoLib reads or names, and of common archives and documents. */
const SIGNATURES: Array<[number, number[]]> = [
  // Video and audio containers.
  [0, [0x1a, 0x45, 0xdf, 0xa3]], // Matroska, WebM (EBML)
  [0, ascii('RIFF')], // AVI, WAV, WebP, CDXA…
  [0, ascii('RF64')],
  [0, ascii('BW64')],
  [0, ascii('FORM')], // AIFF, IFF
  [0, [0x06, 0x0e, 0x2b, 0x34]], // MXF (SMPTE UL)
  [0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]], // ASF, WMV, WMA
  [0, ascii('FLV')],
  [0, ascii('OggS')],
  [0, ascii('.RMF')],
  [0, ascii('DKIF')], // IVF
  [0, ascii('nut/')],
  [0, ascii('YUV4MPEG2')],
  [0, ascii('BBCD')], // Dirac
  [0, ascii('DPG0')],
  [0, ascii('LEITCH')], // LXF
  [0, ascii('DVDVIDEO')],
  [0, ascii('MOBJ')],
  [0, ascii('MPLS')],
  [0, ascii('HDMV')],
  [0, ascii('INDX')],
  [0, [0x00, 0x00, 0x00, 0x00, 0x01, 0xbc]], // GXF
  [0, [0x12, 0x00]], // AV1 OBUs (temporal delimiter)
  [0, [0x1f, 0x07, 0x00]], // DV DIF
  [0, ascii('FWS')], // Flash
  [0, ascii('CWS')],
  [0, ascii('ZWS')],
  [0, ascii('#EXTM3U')],
  // Sound.
  [0, ascii('ID3')],
  [0, ascii('ADIF')],
  [0, ascii('fLaC')],
  [0, ascii('caff')],
  [0, ascii('.snd')],
  [0, ascii('#!AMR')],
  [0, ascii('MAC ')],
  [0, ascii('MThd')],
  [0, ascii('wvpk')],
  [0, ascii('TTA1')],
  [0, ascii('MPCK')],
  [0, ascii('MP+')],
  [0, ascii('tBaK')],
  [0, ascii('LA0')],
  [0, ascii('OFR ')],
  [0, ascii('IMPM')],
  [0, ascii('Extended Module')],
  [0, ascii('RKA')],
  [0, ascii('TWIN')],
  [0, ascii('SShd')],
  [0, ascii('ea3')],
  [0, ascii('PG')], // Blu-ray PGS subtitles
  [0, [0x0b, 0x77]], // AC-3, E-AC-3
  [0, [0x77, 0x0b]],
  [44, ascii('SCRM')], // S3M
  [1080, ascii('M.K.')], // MOD
  // Pictures.
  [0, [0x89, 0x50, 0x4e, 0x47]], // PNG
  [0, [0xff, 0xd8, 0xff]], // JPEG
  [0, [0xff, 0x4f, 0xff, 0x51]], // JPEG 2000 codestream
  [0, [0xff, 0x0a]], // JPEG XL codestream
  [0, ascii('GIF8')],
  [0, ascii('II*\0')], // TIFF (and camera raws built on it)
  [0, ascii('MM\0*')],
  [0, ascii('II+\0')], // BigTIFF
  [0, ascii('MM\0+')],
  [0, ascii('BM')],
  [0, ascii('8BPS')], // PSD
  [0, ascii('DDS ')],
  [0, ascii('SDPX')],
  [0, ascii('XPDS')],
  [0, [0x76, 0x2f, 0x31, 0x01]], // OpenEXR
  [0, [0x80, 0x2a, 0x5f, 0xd7]], // Cineon
  [0, ascii('BPG')],
  [0, ascii('icns')],
  [0, ascii('qoif')],
  [0, ascii('ARRI')],
  [0, ascii('RED')],
  [0, ascii('FUJIFILM')],
  [0, [0x01, 0xda]], // SGI
  [0, [0x59, 0xa6, 0x6a, 0x95]], // Sun raster
  // Documents, archives and programs (MediaInfoLib names several of them: a file of kind 'other').
  [0, ascii('%PDF')],
  [0, ascii('PK')], // ZIP and everything built on it (Office, Keynote, JAR, EPUB)
  [0, [0x1f, 0x8b]], // gzip
  [0, ascii('BZh')],
  [0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]], // 7z
  [0, ascii('Rar!')],
  [0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], // xz
  [0, [0x28, 0xb5, 0x2f, 0xfd]], // zstd
  [0, [0x04, 0x22, 0x4d, 0x18]], // LZ4
  [7, ascii('**ACE**')],
  [257, ascii('ustar')],
  [32769, ascii('CD001')], // ISO 9660
  [34817, ascii('CD001')],
  [36865, ascii('CD001')],
  [0, [0xd0, 0xcf, 0x11, 0xe0]], // Compound File (AAF, older Office)
  [0, [0x7f, 0x45, 0x4c, 0x46]], // ELF
  [0, ascii('MZ')], // Windows programs
  [0, [0xca, 0xfe, 0xba, 0xbe]], // Java classes, Mach-O universal
  [0, [0xfe, 0xed, 0xfa, 0xce]], // Mach-O
  [0, [0xfe, 0xed, 0xfa, 0xcf]],
  [0, [0xce, 0xfa, 0xed, 0xfe]],
  [0, [0xcf, 0xfa, 0xed, 0xfe]],
  [0, ascii('\0asm')],
  [0, ascii('SQLite format 3')],
  [3, ascii('STL')], // EBU STL subtitles ('850STL…')
  [0, [0xef, 0xbb, 0xbf]], // UTF-8 byte order mark
  [0, [0xff, 0xfe]], // UTF-16 byte order marks
  [0, [0xfe, 0xff]],
];

/** ISO BMFF box types a file may open with (MP4, MOV, 3GP, M4A, HEIC, AVIF, JPEG 2000, CMAF segments). */
const FIRST_BOXES = new Set([
  'ftyp',
  'moov',
  'mdat',
  'free',
  'skip',
  'wide',
  'pnot',
  'uuid',
  'styp',
  'sidx',
  'moof',
  'jP  ',
  'jP2 ',
  'JXL ',
]);

function startsAt(head: Uint8Array, offset: number, bytes: number[]): boolean {
  if (offset + bytes.length > head.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false;
  return true;
}

/** ICO or CUR: reserved 0, type 1 or 2, then at least one image. */
function iconAtStart(head: Uint8Array): boolean {
  return head[0] === 0 && head[1] === 0 && (head[2] === 1 || head[2] === 2) && head[3] === 0 && head[4]! > 0;
}

function boxAtStart(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  return FIRST_BOXES.has(String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!));
}

/** Three transport-stream packets in a row (188, 192 with a timecode, 204 with FEC) in the first KiB. */
function transportStream(head: Uint8Array): boolean {
  for (const stride of [188, 192, 204]) {
    const last = Math.min(head.length - 2 * stride - 1, 1024);
    for (let i = head.indexOf(0x47); i >= 0 && i <= last; i = head.indexOf(0x47, i + 1)) {
      if (head[i + stride] === 0x47 && head[i + 2 * stride] === 0x47) return true;
    }
  }
  return false;
}

/**
 * Two MPEG start codes (00 00 01) anywhere: a program or elementary stream, from its start (a pack header,
 * or sequence and picture headers, or H.264/HEVC parameter sets and a slice) or cut in its middle. One
 * alone is no stream: four bytes of a length or an index can read 00 00 01 xx.
 */
function startCodes(head: Uint8Array): boolean {
  let found = 0;
  for (let i = 0; i + 2 < head.length; i++) {
    if (head[i + 2]! > 1) {
      i += 2;
      continue;
    }
    if (head[i] === 0 && head[i + 1] === 0 && head[i + 2] === 1 && ++found === 2) return true;
  }
  return false;
}

const MPEG_BITRATES_KBPS = [
  // [version 1][layer 1, 2, 3], then [version 2 / 2.5][layer 1, 2 & 3]
  [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const MPEG_RATES = [44100, 48000, 32000];

/** The length of the MPEG audio frame whose header is at `i`, or 0 when none is there. */
function mpegAudioFrame(head: Uint8Array, i: number): number {
  if (i + 4 > head.length || head[i] !== 0xff || (head[i + 1]! & 0xe0) !== 0xe0) return 0;
  const version = (head[i + 1]! >> 3) & 3; // 0: 2.5, 2: 2, 3: 1
  const layer = (head[i + 1]! >> 1) & 3; // 1: III, 2: II, 3: I
  const bitrateIndex = head[i + 2]! >> 4;
  const rateIndex = (head[i + 2]! >> 2) & 3;
  if (version === 1 || layer === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const padding = (head[i + 2]! >> 1) & 1;
  const rate = MPEG_RATES[rateIndex]! / (version === 3 ? 1 : version === 2 ? 2 : 4);
  const table = version === 3 ? 3 - layer : layer === 3 ? 3 : 4;
  const bitrate = MPEG_BITRATES_KBPS[table]![bitrateIndex - 1]! * 1000;
  if (layer === 3) return Math.floor((12 * bitrate) / rate + padding) * 4;
  const samples = layer === 1 && version !== 3 ? 576 : 1152;
  return Math.floor(((samples / 8) * bitrate) / rate) + padding;
}

/** The length of the ADTS (AAC) frame whose header is at `i`, or 0 when none is there. */
function adtsFrame(head: Uint8Array, i: number): number {
  if (i + 7 > head.length || head[i] !== 0xff || (head[i + 1]! & 0xf6) !== 0xf0) return 0;
  if (((head[i + 2]! >> 2) & 0xf) > 12) return 0;
  const length = ((head[i + 3]! & 3) << 11) | (head[i + 4]! << 3) | (head[i + 5]! >> 5);
  return length >= 7 ? length : 0;
}

/** Two MPEG audio or ADTS frames back to back in the first 16 KiB: MP3, MP2 or AAC, cut anywhere. */
function audioFrames(head: Uint8Array): boolean {
  const end = Math.min(head.length, 16 * 1024);
  for (let i = head.indexOf(0xff); i >= 0 && i < end; i = head.indexOf(0xff, i + 1)) {
    for (const frame of [mpegAudioFrame, adtsFrame]) {
      const length = frame(head, i);
      if (length > 0 && frame(head, i + length) > 0) return true;
    }
  }
  return false;
}

/** Sync words long enough that one found anywhere in the head is no accident (1 in 2^32 per byte). */
const SYNC_WORDS = new Set([
  0x7ffe8001, // DTS
  0xfe7f0180,
  0x1fffe800,
  0xff1f00e8,
  0x64582025, // DTS-HD
  0xf8724e1f, // SMPTE ST 337 (Dolby E, AES3 data)
  0x72f81f4e,
  0xf8726fba, // Dolby TrueHD
  0xf8726fbb, // MLP
]);
/** The first two bytes of SYNC_WORDS and AC-3's two sync words (0B 77, 77 0B), for a quick skip. */
const SYNC_PAIRS = new Uint8Array(65536);
for (const word of SYNC_WORDS) SYNC_PAIRS[word >>> 16] = 1;
SYNC_PAIRS[0x0b77] = 1;
SYNC_PAIRS[0x770b] = 1;
/**
 * Every byte of SYNC_PAIRS, first or second (10 values of 256). Every other byte of the head is looked
 * up in it, and only a hit looks at the pairs the byte ends and starts: half the steps, on a table that
 * stays in the processor's nearest cache where the pairs' 64 KiB do not (a random 64 KiB head is
 * sniffed in 0.16 ms, from 0.20).
 */
const SYNC_BYTES = new Uint8Array(256);
for (let pair = 0; pair < 65536; pair++) {
  if (SYNC_PAIRS[pair] === 1) SYNC_BYTES[pair >>> 8] = SYNC_BYTES[pair & 0xff] = 1;
}

/**
 * A long sync word anywhere in the head, or AC-3 sync words at equal distances (one frame apart, within
 * 4 bytes): DTS, Dolby E, TrueHD or AC-3 cut anywhere. One pass, skipping byte pairs no sync word starts with.
 */
function syncWords(head: Uint8Array): boolean {
  const ac3: number[] = [];
  // Where the last four-byte word may start; a pair starting at an odd place is found by its second byte.
  const last = head.length - 4;
  for (let i = 0; i <= last + 1; i += 2) {
    if (SYNC_BYTES[head[i]!] === 0) continue;
    for (let at = i === 0 ? 0 : i - 1; at <= i && at <= last; at++) {
      const pair = (head[at]! << 8) | head[at + 1]!;
      if (SYNC_PAIRS[pair] === 0) continue;
      if (pair === 0x0b77 || pair === 0x770b) {
        if (ac3.length < 512) ac3.push(at);
        continue;
      }
      const word = ((pair << 16) | (head[at + 2]! << 8) | head[at + 3]!) >>> 0;
      if (SYNC_WORDS.has(word)) return true;
    }
  }
  const found = new Set(ac3);
  for (const a of ac3) {
    for (const b of ac3) {
      const d = b - a;
      if (d < 64 || d > 8192) continue;
      for (let slack = -4; slack <= 4; slack++) if (found.has(b + d + slack)) return true;
    }
  }
  return false;
}

/**
 * Whether the head uses nearly every byte value, as random, compressed or encrypted bytes do (a 4 KiB
 * window of random bytes holds about 256 distinct values; text, tables and headers far fewer).
 */
function looksRandom(head: Uint8Array): boolean {
  const window = head.subarray(0, DISTINCT_WINDOW);
  const seen = new Uint8Array(256);
  let distinct = 0;
  for (const byte of window) {
    if (seen[byte] === 0) {
      seen[byte] = 1;
      distinct++;
    }
  }
  // The count expected of random bytes, less a margin: 256 × (1 − e^(−n/256)) × 0.9.
  return distinct >= 0.9 * 256 * (1 - Math.exp(-window.length / 256));
}

/** Text of any kind (subtitles, playlists, XML sidecars): the head is valid UTF-8. */
function utf8(head: Uint8Array): boolean {
  try {
    // The last few bytes may cut a character in two.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, DISTINCT_WINDOW - 4)));
    return true;
  } catch {
    return false;
  }
}

/**
 * False when the head (the file's first SNIFF_BYTES, or all of a smaller file) cannot be the start of
 * anything MediaInfoLib reads: the file is unreadable without starting it. True means "read it".
 */
export function mayBeKnownFormat(head: Uint8Array): boolean {
  if (head.length < MIN_SNIFF_BYTES) return true;
  if (!looksRandom(head)) return true;
  if (boxAtStart(head) || iconAtStart(head)) return true;
  if (SIGNATURES.some(([offset, bytes]) => startsAt(head, offset, bytes))) return true;
  return transportStream(head) || startCodes(head) || audioFrames(head) || syncWords(head) || utf8(head);
}
