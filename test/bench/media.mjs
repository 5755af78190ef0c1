// `npm run bench:media`: what reading one file's media facts costs (issue #30), for a 20 GiB MP4 whose
// moov is at the end: a real short clip (ffmpeg's test sources, 10 s of 1080p H.264 with AAC) with its
// mdat grown sparse to 20 GiB, so the file takes a few MB of disk. Rows:
//
//   (a) floor    mediainfo.js reading the local file directly in Node: its own analyzeData with its default
//                chunk size, over positional reads of one file handle (the library's floor)
//   (b) desktop  our reader ('@avp/shared/media-reader' readFileFacts) as the desktop engine and av-upload use it
//   (c) server   our reader over ranged GETs of the API's S3 driver (api/src/adapters/storage/s3.ts) from an
//                S3 stand-in (s3rver) holding the file, as the server's probe reads a stored object
//                (api/src/modules/uploads/media-probe.ts; its database record is left out)
//   (d) portal   the portal's worker (web/src/features/uploads/media-facts.worker.ts) in Chromium, on a page
//                built here with Vite, reading the file picked in an <input type=file> (Blob.slice)
//   (e) naive    `sha256sum` of the whole file: what a tool that reads everything pays
//   (f) context  mediainfo.js's own loop (default chunk size) over (c)'s ranged GETs: what the library
//                alone pays for a remote source, where each request costs a round trip
//
// Each row's time is the reading alone (the WebAssembly instance is made before, as a reader that reads
// many files keeps one), and its bytes are what the reader asked its source for. Ratios are to (a). Goal:
// each path within 2× of the floor in time and bytes. A benchmark: figures only, never pass/fail.
//
// Environment: BENCH_MEDIA_RUNS (default 3; the table shows every run and the median), BENCH_MEDIA_WARMUP
// (uncounted reads first, default 3), BENCH_MEDIA_NAIVE_RUNS (sha256sum, default 1), BENCH_MEDIA_GIB
// (default 20), BENCH_MEDIA_CLIP (a clip of your own, moov at the end, with ffmpeg's 8-byte 'free' before
// its mdat), BENCH_MEDIA_ROWS (e.g. 'abc' while iterating), CHROMIUM (default /usr/bin/chromium).
// Run with: node --import tsx --conditions=source test/bench/media.mjs (the npm script does).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.BENCH_MEDIA_RUNS ?? 3);
const SIZE = Number(process.env.BENCH_MEDIA_GIB ?? 20) * 1024 ** 3;
const ROWS = process.env.BENCH_MEDIA_ROWS ?? 'abcde';
const WARMUP = Number(process.env.BENCH_MEDIA_WARMUP ?? 3);
// Reading 20 GiB takes minutes on a small machine: once is enough to see what it costs.
const NAIVE_RUNS = Number(process.env.BENCH_MEDIA_NAIVE_RUNS ?? 1);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const run = promisify(execFile);

const work = await mkdtemp(join(tmpdir(), 'avp-bench-media-'));
const cleanups = [() => rm(work, { recursive: true, force: true })];

// ---------------------------------------------------------------------------------------------- the file

async function makeClip() {
  if (process.env.BENCH_MEDIA_CLIP) return readFile(process.env.BENCH_MEDIA_CLIP);
  const ffmpeg = existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null;
  if (!ffmpeg) return readFile(join(root, 'test', 'fixtures', 'media', 'h264-1280x720-25-aac.mp4'));
  const clip = join(work, 'clip.mp4');
  // moov at the end (ffmpeg's default), with the 8-byte 'free' box it writes before mdat.
  await run(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30000/1001:duration=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=10'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-b:v', '8M'],
    ...['-c:a', 'aac', '-b:a', '192k', '-ac', '2', '-shortest', clip],
  ]);
  return readFile(clip);
}

function topBoxes(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes = [];
  for (let at = 0; at < bytes.length;) {
    const size = view.getUint32(at);
    boxes.push({ type: bytes.subarray(at + 4, at + 8).toString('latin1'), start: at, size });
    at += size;
  }
  return boxes;
}

/** The clip's boxes with its mdat grown (a hole) so that the file is `total` bytes, moov at the end. */
async function growClip(clip, target, total) {
  const boxes = topBoxes(clip);
  const free = boxes.find((b) => b.type === 'free');
  const mdat = boxes.find((b) => b.type === 'mdat');
  const moov = boxes.find((b) => b.type === 'moov');
  if (!free || !mdat || !moov || free.start + 8 !== mdat.start || moov.start < mdat.start)
    throw new Error("The clip needs ffmpeg's layout: ftyp, an 8-byte free, mdat, then moov.");
  const file = await open(target, 'w');
  try {
    await file.write(clip, 0, free.start, 0);
    // 'free' + the 8-byte mdat header become one 16-byte mdat header with a 64-bit size: offsets hold.
    const header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write('mdat', 4, 'latin1');
    const moovAt = total - moov.size;
    header.writeBigUInt64BE(BigInt(moovAt - free.start), 8);
    await file.write(header, 0, 16, free.start);
    await file.write(clip, mdat.start + 8, mdat.size - 8, mdat.start + 8);
    await file.truncate(moovAt);
    await file.write(clip, moov.start, moov.size, moovAt);
  } finally {
    await file.close();
  }
}

// ---------------------------------------------------------------------------------------------- readers

const mediaInfoFactory = (await import('mediainfo.js')).default;
const { readFileFacts, readMediaFacts } = await import('@avp/shared/media-reader');
const { describeMediaFacts } = await import('@avp/shared');

/** (a) mediainfo.js's own loop over one file handle, with its default chunk size. */
async function floorReader() {
  const mi = await mediaInfoFactory({ format: 'object' });
  return async (path) => {
    const handle = await open(path, 'r');
    const { size } = await handle.stat();
    let bytes = 0;
    const started = performance.now();
    try {
      const result = await mi.analyzeData(size, async (length, offset) => {
        const buffer = new Uint8Array(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        bytes += bytesRead;
        return buffer.subarray(0, bytesRead);
      });
      const video = result.media?.track?.find((t) => t['@type'] === 'Video');
      return {
        ms: performance.now() - started,
        bytes,
        what: video ? `${video.Width}×${video.Height} ${video.Format}` : '—',
      };
    } finally {
      await handle.close();
    }
  };
}

/** (b) the desktop engine's reader. */
async function desktopReader(path) {
  const started = performance.now();
  const result = await readFileFacts(path);
  return { ms: performance.now() - started, bytes: result.bytesRead, what: describeMediaFacts(result.facts) };
}

/** (c) ranged GETs of the API's S3 driver against an S3 stand-in whose object is the sparse file. */
async function serverReader(path) {
  const S3rver = createRequire(join(root, 'api', 'package.json'))('s3rver');
  const dir = join(work, 's3');
  await mkdir(join(dir, 'avp-bench'), { recursive: true });
  const key = 'submissions/bench/file';
  // s3rver's file store: <dir>/<bucket>/<key>._S3rver_object, and its md5 beside it (written here, so the
  // stand-in never reads 20 GiB to compute one).
  const objectPath = join(dir, 'avp-bench', 'submissions', 'bench', 'file._S3rver_object');
  await mkdir(join(dir, 'avp-bench', 'submissions', 'bench'), { recursive: true });
  await run('cp', ['--sparse=always', path, objectPath]);
  await writeFile(`${objectPath}.md5`, '00000000000000000000000000000000');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'avp-bench' }],
  });
  const { port } = await server.run();
  cleanups.push(() => server.close());
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  const { S3Storage } = await import(join(root, 'api', 'src', 'adapters', 'storage', 's3.ts'));
  const storage = new S3Storage({
    S3_BUCKET: 'avp-bench',
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: true,
  });
  const { size } = await stat(objectPath);
  const get = async (offset, length) => {
    const want = Math.max(0, Math.min(length, size - offset));
    const chunks = [];
    for await (const chunk of await storage.read(key, { start: offset, end: offset + want - 1 }))
      chunks.push(chunk);
    const buffer = Buffer.concat(chunks);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  };
  // (f) the library's own loop (default chunk size) over the same GETs: the floor for a remote source.
  const mi = await mediaInfoFactory({ format: 'object' });
  const libraryOverS3 = async () => {
    let requests = 0;
    let bytes = 0;
    const started = performance.now();
    await mi.analyzeData(size, async (length, offset) => {
      requests++;
      const chunk = await get(offset, length);
      bytes += chunk.length;
      return chunk;
    });
    return { ms: performance.now() - started, bytes, what: `mediainfo.js's own chunks (${requests} GETs)` };
  };
  const ours = async () => {
    let requests = 0;
    const started = performance.now();
    const result = await readMediaFacts({
      size,
      // As the probe's S3 source reads: one ranged GET per chunk the reader asks for.
      readChunk: (offset, length) => {
        requests++;
        return get(offset, length);
      },
    });
    return {
      ms: performance.now() - started,
      bytes: result.bytesRead,
      what: `${describeMediaFacts(result.facts)} (${requests} GETs)`,
    };
  };
  return { ours, libraryOverS3 };
}

/** (d) the portal's worker in Chromium, on a page built here (Vite) from the web app's own modules. */
async function portalReader(path) {
  if (!existsSync(CHROMIUM)) return null;
  const page = join(work, 'page');
  const out = join(work, 'page-dist');
  await mkdir(page, { recursive: true });
  const facts = join(root, 'web', 'src', 'features', 'uploads', 'media-facts.ts');
  if (!existsSync(facts)) return null;
  await writeFile(
    join(page, 'index.html'),
    '<!doctype html><html><body><input type="file" id="file"><script type="module" src="./main.ts"></script></body></html>',
  );
  await writeFile(
    join(page, 'main.ts'),
    `import { readFileFacts } from ${JSON.stringify(facts)};
     const input = document.getElementById('file') as HTMLInputElement;
     (window as unknown as { readPicked: () => Promise<unknown> }).readPicked = async () => {
       const file = input.files![0]!;
       const started = performance.now();
       const read = await readFileFacts(file);
       return { ms: performance.now() - started, bytes: read.bytesRead, facts: read.facts };
     };`,
  );
  const { build } = await import('vite');
  await build({
    root: page,
    logLevel: 'warn',
    configFile: false,
    resolve: {
      alias: {
        '@avp/shared/media-reader': join(root, 'shared', 'src', 'media', 'reader.ts'),
        '@avp/shared': join(root, 'shared', 'src', 'index.ts'),
      },
    },
    build: { outDir: out, emptyOutDir: true },
  });
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const http = createServer(async (req, res) => {
    const file = join(out, new URL(req.url, 'http://x').pathname.replace(/^\/$/, '/index.html'));
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => http.listen(0, '127.0.0.1', ok));
  cleanups.push(() => new Promise((ok) => http.close(ok)));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  cleanups.push(() => browser.close());
  const url = `http://127.0.0.1:${http.address().port}/`;
  // One page, as a person picking files on the upload form: its worker and WebAssembly stay; each read
  // is a fresh pick (a new File), timed by the page from the pick to the answer.
  const tab = await browser.newPage();
  await tab.goto(url);
  return async () => {
    await tab.locator('#file').setInputFiles(path);
    const result = await tab.evaluate(() => globalThis.readPicked());
    return { ms: result.ms, bytes: result.bytes, what: describeMediaFacts(result.facts) };
  };
}

/** (e) sha256sum of the whole file. */
async function naive(path) {
  const started = performance.now();
  await run('sha256sum', [path], { maxBuffer: 1024 * 1024 });
  return { ms: performance.now() - started, bytes: (await stat(path)).size, what: 'sha-256 of every byte' };
}

// ---------------------------------------------------------------------------------------------- the run

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
};
const mb = (bytes) => (bytes / 1e6).toFixed(bytes >= 1e9 ? 0 : 2);

try {
  const clip = await makeClip();
  const big = join(work, 'big.mp4');
  await growClip(clip, big, SIZE);
  const disk = Number((await run('du', ['-k', big])).stdout.split('\t')[0]) * 1024;
  console.log(
    `${(SIZE / 1024 ** 3).toFixed(0)} GiB MP4 (moov at the end, mdat sparse; ${mb(disk)} MB on disk) from a ${mb(clip.length)} MB clip\n`,
  );

  const rows = [];
  if (ROWS.includes('a')) {
    const read = await floorReader();
    rows.push({ id: 'a', name: '(a) floor: mediainfo.js in Node', read: () => read(big) });
  }
  if (ROWS.includes('b')) {
    rows.push({ id: 'b', name: '(b) desktop engine (our reader)', read: () => desktopReader(big) });
  }
  if (ROWS.includes('c')) {
    const { ours, libraryOverS3 } = await serverReader(big);
    rows.push({ id: 'c', name: '(c) server from S3 (ranged GETs)', read: ours });
    rows.push({ id: 'f', name: '(f) mediainfo.js alone over that S3', read: libraryOverS3 });
  }
  if (ROWS.includes('d')) {
    const read = await portalReader(big).catch((error) => {
      console.log(`(d) not measured: ${error.message.split('\n')[0]}`);
      return null;
    });
    rows.push({
      id: 'd',
      name: "(d) portal's worker in Chromium",
      read,
      missing: read ? null : 'not measured',
    });
  }
  if (ROWS.includes('e')) rows.push({ id: 'e', name: '(e) sha256sum of the file', read: () => naive(big) });

  // WebAssembly runs slowly until V8 has optimised it: every reader first reads the file WARMUP times,
  // uncounted, so that no row is timed cold while another is warm (sha256sum needs none).
  for (const row of rows) {
    row.runs = [];
    if (row.id !== 'e' && row.read) for (let i = 0; i < WARMUP; i++) await row.read();
  }
  for (let i = 0; i < RUNS; i++) {
    for (const row of rows) {
      if (!row.read || (row.id === 'e' && i >= NAIVE_RUNS)) continue;
      row.runs.push(await row.read());
    }
  }

  const floor = rows.find((r) => r.id === 'a');
  const floorMs = floor ? median(floor.runs.map((r) => r.ms)) : null;
  const floorBytes = floor ? median(floor.runs.map((r) => r.bytes)) : null;
  console.log(
    `${'path'.padEnd(36)} ${'ms (median; runs)'.padEnd(30)} ${'MB read (median; runs)'.padEnd(34)} ×time  ×bytes`,
  );
  for (const row of rows) {
    if (row.runs.length === 0) {
      console.log(`${row.name.padEnd(36)} ${row.missing ?? 'not measured'}`);
      continue;
    }
    const ms = median(row.runs.map((r) => r.ms));
    const bytes = median(row.runs.map((r) => r.bytes));
    const msText = `${ms.toFixed(0)} (${row.runs.map((r) => r.ms.toFixed(0)).join(', ')})`;
    const bytesText = `${mb(bytes)} (${row.runs.map((r) => mb(r.bytes)).join(', ')})`;
    const ratio = (x, y) => (y ? (x / y).toFixed(2) : '—');
    console.log(
      `${row.name.padEnd(36)} ${msText.padEnd(30)} ${bytesText.padEnd(34)} ${ratio(ms, floorMs).padStart(5)}  ${ratio(bytes, floorBytes).padStart(6)}`,
    );
  }
  console.log('\nWhat each read:');
  for (const row of rows) if (row.runs[0]) console.log(`  ${row.name}: ${row.runs[0].what}`);
  console.log('\nGoal: each path within 2× of the floor in time and bytes.');
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
