/**
 * The names people give containers and codecs, and the one each is shown as. MediaInfoLib says 'AVC',
 * 'MPEG-4' and 'QuickTime'; staff type 'h264', 'mp4' or 'mov'; screens say H.264, MP4 and MOV. The reader
 * and the spec form both turn a name into its display name here, and the check compares display names, so
 * 'h.264' in a spec matches a file MediaInfoLib calls 'AVC'.
 */

/** Lower-case letters and digits only: 'H.264' → 'h264', 'Apple ProRes' → 'appleprores'. */
function key(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function table(entries: Record<string, string[]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [display, aliases] of Object.entries(entries)) {
    map.set(key(display), display);
    for (const alias of aliases) map.set(key(alias), display);
  }
  return map;
}

const CONTAINERS = table({
  MP4: ['MPEG-4', 'mpeg4', 'm4v', 'isom'],
  MOV: ['QuickTime', 'qt'],
  MKV: ['Matroska'],
  WebM: [],
  AVI: [],
  MXF: [],
  'MPEG-TS': ['MPEG-TS', 'ts', 'm2ts', 'BDAV'],
  'MPEG-PS': ['MPEG-PS', 'mpg', 'vob'],
  WMV: ['Windows Media', 'asf', 'wma'],
  FLV: ['Flash Video'],
  M4A: [],
  MP3: ['MPEG Audio'],
  WAV: ['Wave'],
  AIFF: ['aif'],
  FLAC: [],
  Ogg: [],
  JPEG: ['jpg'],
  PNG: [],
  GIF: [],
  TIFF: ['tif'],
  WebP: [],
  HEIF: ['heic'],
  BMP: [],
  PSD: [],
  PDF: [],
});

const VIDEO_CODECS = table({
  'H.264': ['AVC', 'h264', 'x264', 'avc1'],
  HEVC: ['H.265', 'h265', 'x265', 'hvc1', 'hev1'],
  ProRes: ['Apple ProRes', 'prores'],
  'DNxHD/HR': ['VC-3', 'DNxHD', 'DNxHR', 'DNx'],
  AV1: [],
  VP8: [],
  VP9: [],
  'MPEG-2': ['MPEG Video', 'mpeg2', 'mpeg2video'],
  'MPEG-4 Visual': ['MPEG-4 Visual', 'xvid', 'divx'],
  'Motion JPEG': ['MJPEG', 'JPEG'],
  HAP: ['Hap', 'Hap Alpha', 'Hap Q'],
  'Animation (QuickTime RLE)': ['RLE', 'qtrle'],
  Cineform: ['CFHD'],
  VC1: ['VC-1', 'wmv3'],
});

const AUDIO_CODECS = table({
  AAC: ['AAC LC', 'mp4a'],
  PCM: ['lpcm', 'pcm_s16le', 'pcm_s24le', 'twos', 'sowt'],
  'AC-3': ['ac3', 'Dolby Digital'],
  'E-AC-3': ['eac3', 'Dolby Digital Plus'],
  MP3: ['MPEG Audio', 'mp3'],
  Opus: [],
  Vorbis: [],
  FLAC: [],
  ALAC: [],
});

function display(map: Map<string, string>, name: string): string {
  const trimmed = name.trim();
  return map.get(key(trimmed)) ?? trimmed;
}

/** The display name of a container or image format ('QuickTime' → 'MOV'); an unknown name as given. */
export function containerDisplayName(name: string): string {
  return display(CONTAINERS, name);
}

/** The display name of a video codec ('AVC' → 'H.264'); an unknown name as given. */
export function videoCodecDisplayName(name: string): string {
  return display(VIDEO_CODECS, name);
}

/** The display name of an audio codec ('AAC LC' → 'AAC'); an unknown name as given. */
export function audioCodecDisplayName(name: string): string {
  return display(AUDIO_CODECS, name);
}

/** Whether two names mean the same thing (after display names, ignoring case and punctuation). */
export function sameName(a: string, b: string): boolean {
  return key(a) === key(b);
}

/** The container names a spec form offers, in the order it offers them. */
export const MEDIA_CONTAINER_CHOICES = ['MP4', 'MOV', 'MXF', 'MKV', 'WebM', 'AVI'] as const;
/** The video codec names a spec form offers. */
export const MEDIA_VIDEO_CODEC_CHOICES = [
  'H.264',
  'HEVC',
  'ProRes',
  'DNxHD/HR',
  'HAP',
  'AV1',
  'VP9',
] as const;
/** The audio codec names a spec form offers. */
export const MEDIA_AUDIO_CODEC_CHOICES = ['AAC', 'PCM', 'AC-3', 'MP3', 'Opus'] as const;
