// `npm run media:fixtures`: the small real media files the media-facts tests read (issue #30).
//
// Every file is made here by ffmpeg from its test sources (testsrc2, sine): no clip from anywhere else.
// The output is committed under test/fixtures/media, so the tests need no ffmpeg:
//
//   *.mp4, *.mov, *.png, *.jpg, not-a-video.mp4   the fixtures (1–3 s, small where the fact allows)
//   fixtures.json                                  each file's expected facts, as declared here from the
//                                                  encoding settings (not read back from the files)
//   README.md                                      one line per file with its expected facts
//
// Options: --ffmpeg=/path/to/ffmpeg (default /usr/bin/ffmpeg, else `ffmpeg` on the PATH).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'test', 'fixtures', 'media');
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const ffmpeg = args.ffmpeg ?? (existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : 'ffmpeg');

const AAC = { codec: 'AAC', channels: 2, sampleRate: 48000 };
const PCM = { codec: 'PCM', channels: 2, sampleRate: 48000 };

// Reproducible output: no encoder strings or creation times, one x264/x265 thread.
const BITEXACT = ['-fflags', '+bitexact', '-map_metadata', '-1', '-threads', '1'];

const video = (size, rate, seconds) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
];
const tone = (seconds) => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
const aac = ['-c:a', 'aac', '-b:a', '64k', '-ac', '2', '-ar', '48000'];
const h264 = (bitrate) => [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-pix_fmt',
  'yuv420p',
  '-b:v',
  bitrate,
  '-x264-params',
  'threads=1',
];

/**
 * name, ffmpeg arguments (inputs and codecs; the output is added), the facts the file must read as, and
 * what it is for. `facts: null`: the reader must not make sense of it.
 */
const FIXTURES = [
  {
    name: 'h264-1920x1080-29.97-aac-faststart.mp4',
    note: 'the file that meets a 1080p H.264 spec; moov at the start',
    args: [
      ...video('1920x1080', '30000/1001', 2),
      ...tone(2),
      ...h264('400k'),
      ...aac,
      '-movflags',
      '+faststart',
      '-shortest',
    ],
    facts: {
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1920,
      height: 1080,
      fps: 29.97,
      durationSeconds: 2,
      audio: AAC,
    },
  },
  {
    name: 'h264-1280x720-25-aac.mp4',
    note: 'a wrong resolution and frame rate for a 1080p 29.97 spec; moov at the end',
    args: [...video('1280x720', 25, 2), ...tone(2), ...h264('300k'), ...aac, '-shortest'],
    facts: {
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1280,
      height: 720,
      fps: 25,
      durationSeconds: 2,
      audio: AAC,
    },
  },
  {
    name: 'h264-1920x1080-25-noaudio.mp4',
    note: 'no audio track; 3 s; moov at the end',
    args: [...video('1920x1080', 25, 3), ...h264('300k'), '-an'],
    facts: {
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1920,
      height: 1080,
      fps: 25,
      durationSeconds: 3,
      audio: null,
    },
  },
  {
    name: 'h264-1280x720-29.97-aac.mov',
    note: 'H.264 in a QuickTime MOV',
    args: [...video('1280x720', '30000/1001', 2), ...tone(2), ...h264('300k'), ...aac, '-shortest'],
    facts: {
      kind: 'video',
      container: 'MOV',
      videoCodec: 'H.264',
      width: 1280,
      height: 720,
      fps: 29.97,
      durationSeconds: 2,
      audio: AAC,
    },
  },
  {
    name: 'h264-3840x2160-29.97.mov',
    note: '4K, 1 s at a low bit rate, no audio',
    args: [...video('3840x2160', '30000/1001', 1), ...h264('600k'), '-an'],
    facts: {
      kind: 'video',
      container: 'MOV',
      videoCodec: 'H.264',
      width: 3840,
      height: 2160,
      fps: 29.97,
      durationSeconds: 1,
      audio: null,
    },
  },
  {
    name: 'hevc-1920x1080-60-faststart.mp4',
    note: 'HEVC (hvc1) at 60 fps, 1 s; moov at the start',
    args: [
      ...video('1920x1080', 60, 1),
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      '400k',
      '-x265-params',
      'log-level=error:pools=1:frame-threads=1',
      '-tag:v',
      'hvc1',
      '-an',
      '-movflags',
      '+faststart',
    ],
    facts: {
      kind: 'video',
      container: 'MP4',
      videoCodec: 'HEVC',
      width: 1920,
      height: 1080,
      fps: 60,
      durationSeconds: 1,
      audio: null,
    },
  },
  {
    name: 'prores-640x360-25-pcm.mov',
    note: 'ProRes 422 Proxy with PCM audio, 1 s (ProRes is large: a small picture)',
    args: [
      ...video('640x360', 25, 1),
      ...tone(1),
      '-c:v',
      'prores_ks',
      '-profile:v',
      '0',
      '-c:a',
      'pcm_s16le',
      '-ac',
      '2',
      '-ar',
      '48000',
      '-shortest',
    ],
    facts: {
      kind: 'video',
      container: 'MOV',
      videoCodec: 'ProRes',
      width: 640,
      height: 360,
      fps: 25,
      durationSeconds: 1,
      audio: PCM,
    },
  },
  {
    name: 'still-1920x1080.png',
    note: 'an image',
    args: [...video('1920x1080', 1, 1), '-frames:v', '1', '-c:v', 'png', '-pred', 'mixed'],
    facts: {
      kind: 'image',
      container: 'PNG',
      videoCodec: null,
      width: 1920,
      height: 1080,
      fps: null,
      durationSeconds: null,
      audio: null,
    },
  },
  {
    name: 'still-3000x2000.jpg',
    note: 'an image',
    args: [...video('3000x2000', 1, 1), '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '20'],
    facts: {
      kind: 'image',
      container: 'JPEG',
      videoCodec: null,
      width: 3000,
      height: 2000,
      fps: null,
      durationSeconds: null,
      audio: null,
    },
  },
];

/** Made from another fixture rather than by ffmpeg. */
const DERIVED = [
  {
    name: 'truncated.mp4',
    note: 'the first half of h264-1280x720-25-aac.mp4: its moov (at the end) is cut off',
    from: 'h264-1280x720-25-aac.mp4',
    make: async (source, target) => {
      const bytes = await readFile(source);
      await writeFile(target, bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
    facts: null,
  },
  {
    name: 'not-a-video.mp4',
    note: 'a text file renamed .mp4',
    make: async (_source, target) => {
      await writeFile(
        target,
        'Run of show, general session\n\n08:00 Doors\n08:30 Welcome video (1920x1080, 29.97 fps)\n'.repeat(
          20,
        ),
      );
    },
    facts: null,
  },
];

function run(command, commandArgs) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${command} failed (${code}): ${stderr.slice(-2000)}`)),
    );
  });
}

/** Written as Prettier lays it out, so `npm run format:check` passes on a fresh run. */
async function writeFormatted(file, text) {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(file, await prettier.format(text, { ...options, filepath: file }));
}

function factsLine(facts, size) {
  if (facts === null) return 'could not be read: "Could not read this file\'s details"';
  const parts = [facts.kind, facts.container];
  if (facts.videoCodec) parts.push(facts.videoCodec);
  if (facts.width) parts.push(`${facts.width}×${facts.height}`);
  if (facts.fps) parts.push(`${facts.fps} fps`);
  if (facts.durationSeconds) parts.push(`${facts.durationSeconds} s`);
  if (facts.kind === 'video') {
    parts.push(facts.audio ? `${facts.audio.codec} ${facts.audio.sampleRate / 1000} kHz stereo` : 'no audio');
  }
  parts.push(`${size} bytes`);
  return parts.join(', ');
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const manifest = [];
for (const fixture of FIXTURES) {
  const target = join(outDir, fixture.name);
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...fixture.args, ...BITEXACT, target]);
  const { size } = await stat(target);
  manifest.push({
    name: fixture.name,
    note: fixture.note,
    size,
    facts: fixture.facts && { ...fixture.facts, sizeBytes: size },
  });
}
for (const fixture of DERIVED) {
  const target = join(outDir, fixture.name);
  await fixture.make(fixture.from ? join(outDir, fixture.from) : null, target);
  const { size } = await stat(target);
  manifest.push({ name: fixture.name, note: fixture.note, size, facts: fixture.facts });
}
await writeFormatted(join(outDir, 'fixtures.json'), JSON.stringify(manifest));
const total = manifest.reduce((sum, f) => sum + f.size, 0);
const readme = [
  '# Media fixtures (issue #30)',
  '',
  'Generated by `npm run media:fixtures` (build/media/fixtures.mjs, ffmpeg test sources) and committed, so the',
  'tests need no ffmpeg. fixtures.json holds the same expectations as data for the tests.',
  '',
  '| File | Expected facts | What it is for |',
  '| --- | --- | --- |',
  ...manifest.map((f) => `| ${f.name} | ${factsLine(f.facts, f.size)} | ${f.note} |`),
  '',
  `${manifest.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB in all.`,
  '',
];
await writeFormatted(join(outDir, 'README.md'), readme.join('\n'));
console.log(`${manifest.length} fixtures, ${total} bytes, in ${outDir}`);
