// `npm run media`: generates the placeholder gallery media and its manifest.
//
// Every picture is drawn here (scenes.mjs: SVG made of shapes), then rasterised and encoded by ffmpeg
// (Debian's build has librsvg, libwebp and libx264: `apt-get install ffmpeg`). No photograph, clip or
// artwork from anywhere else is used. The output is committed, so building the site needs no ffmpeg:
//
//   web/public/media/event_production/ep-NNN.jpg          1200 px JPEG (the fallback and the lightbox image)
//   web/public/media/event_production/ep-NNN-{600,1200}.webp   responsive WebP
//   web/public/media/event_production/ep-NNN_thumb.{jpg,webp}  480 px thumbnails
//   web/public/media/creative_services/cs-NN.mp4          4 s, 640×360 H.264 clips (+ _thumb.jpg/.webp posters)
//   web/public/media/site/*                                splash panels and the Open Graph picture
//   web/public/media/products/demo-*.webp                  480 px pictures of the demo store's products
//                                                          (products.mjs; rasterised by sharp, no ffmpeg needed)
//   web/src/content/gallery.json                           the manifest (SPEC §3 'Gallery item' + caption, size)
//
// Options: --only=photos|videos|site|products, --concurrency=N (default 2).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCT_PICTURES } from './products.mjs';
import { sceneSvg } from './scenes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mediaDir = join(root, 'web', 'public', 'media');
const manifestFile = join(root, 'web', 'src', 'content', 'gallery.json');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const concurrency = Number(args.concurrency ?? 2);

// ---------------------------------------------------------------------------------------------- catalogue

const CLIENT_EVENTS = [
  'Great Lakes Dental Congress',
  'Midwest Pharmacy Summit',
  'Harborview Sales Kickoff',
  'Prairie Energy Forum',
  'Lakeshore Medical Association',
  'Summit Bank Leadership Meeting',
  'Cascade Software User Conference',
  'Gulf Coast Realtors Expo',
  'Orlando Hospitality Awards',
  'Tri-State Nursing Symposium',
  'Northshore Foundation Gala',
  'Meridian Health Partner Day',
];

/** Short wall titles for the LED screens (the caption names the full event). */
const WALL_TITLES = {
  'Great Lakes Dental Congress': 'GLDC 2024',
  'Midwest Pharmacy Summit': 'RX SUMMIT',
  'Harborview Sales Kickoff': 'KICKOFF 24',
  'Prairie Energy Forum': 'ENERGY FORUM',
  'Lakeshore Medical Association': 'LMA ANNUAL',
  'Summit Bank Leadership Meeting': 'LEAD 2024',
  'Cascade Software User Conference': 'CASCADE CONF',
  'Gulf Coast Realtors Expo': 'GCR EXPO',
  'Orlando Hospitality Awards': 'AWARDS NIGHT',
  'Tri-State Nursing Symposium': 'NURSING 24',
  'Northshore Foundation Gala': 'GALA',
  'Meridian Health Partner Day': 'PARTNER DAY',
};

const PHOTO_SCENES = [
  {
    kind: 'generalSession',
    orient: 'landscape',
    caption: (e) => `General session stage with LED wall and moving lights, ${e}`,
  },
  {
    kind: 'breakout',
    orient: 'landscape',
    caption: (e) => `Breakout room with projection and a presenter, ${e}`,
  },
  {
    kind: 'gala',
    orient: 'landscape',
    caption: (e) => `Ballroom uplighting and dinner tables for the evening program, ${e}`,
  },
  {
    kind: 'tradeShow',
    orient: 'landscape',
    caption: (e) => `Exhibit hall booths with rented monitors, ${e}`,
  },
  {
    kind: 'console',
    orient: 'landscape',
    caption: (e) => `Front-of-house audio console and show monitors, ${e}`,
  },
  {
    kind: 'outdoor',
    orient: 'landscape',
    caption: (e) => `Outdoor stage with roof system and LED screen, ${e}`,
  },
  {
    kind: 'camera',
    orient: 'landscape',
    caption: (e) => `Camera riser recording the keynote for image magnification, ${e}`,
  },
  { kind: 'lineArray', orient: 'portrait', caption: (e) => `Flown line-array speakers over the stage, ${e}` },
  {
    kind: 'generalSession',
    orient: 'portrait',
    caption: (e) => `Presenter at the lectern under the main screen, ${e}`,
  },
  { kind: 'breakout', orient: 'portrait', caption: (e) => `Workshop slide on the breakout screen, ${e}` },
];

const BREAKOUT_SLIDES = [
  'Quarterly results',
  'Market outlook',
  'Patient outcomes',
  'Roadmap 2025',
  'Growth by region',
];

function photoCatalogue() {
  const photos = [];
  for (let i = 0; i < 90; i++) {
    const scene = PHOTO_SCENES[i % PHOTO_SCENES.length];
    const event = CLIENT_EVENTS[(i * 5 + Math.floor(i / PHOTO_SCENES.length)) % CLIENT_EVENTS.length];
    const name = `ep-${String(i + 1).padStart(3, '0')}`;
    const portrait = scene.orient === 'portrait';
    photos.push({
      base: name,
      kind: scene.kind,
      seed: 1000 + i * 17,
      palette: i % 6,
      title: scene.kind === 'breakout' ? BREAKOUT_SLIDES[i % BREAKOUT_SLIDES.length] : WALL_TITLES[event],
      entry: {
        type: 'image',
        name: `${name}.jpg`,
        orient: scene.orient,
        folder: 'event_production',
        title: scene.caption(event),
        width: portrait ? 800 : 1200,
        height: portrait ? 1200 : 800,
      },
    });
  }
  return photos;
}

const VIDEO_KINDS = [
  { label: 'Opening video', caption: (e) => `Opening video that starts the general session of the ${e}` },
  {
    label: 'Sponsor commercial',
    caption: (e) => `Thirty-second sponsor commercial shown between sessions at the ${e}`,
  },
  { label: 'Event recap', caption: (e) => `Highlights reel cut overnight for day two of the ${e}` },
  {
    label: 'Speaker introduction',
    caption: (e) => `Walk-up video introducing the keynote speaker at the ${e}`,
  },
  { label: 'Awards package', caption: (e) => `Nominee package for the awards program of the ${e}` },
  { label: 'Animated logo', caption: (e) => `Animated logo sting for the ${e}` },
  {
    label: 'Walk-in loop',
    caption: (e) => `Walk-in loop played while attendees take their seats at the ${e}`,
  },
  { label: 'Product reveal', caption: (e) => `Product launch reveal built for the main screen of the ${e}` },
];

function videoCatalogue() {
  const videos = [];
  for (let i = 0; i < 34; i++) {
    const kind = VIDEO_KINDS[i % VIDEO_KINDS.length];
    const event = CLIENT_EVENTS[(i * 7 + 3) % CLIENT_EVENTS.length];
    const name = `cs-${String(i + 1).padStart(2, '0')}`;
    videos.push({
      base: name,
      seed: 5000 + i * 31,
      palette: (i + 2) % 6,
      title: kind.label,
      subtitle: event,
      entry: {
        type: 'video',
        name: `${name}.mp4`,
        orient: 'landscape',
        folder: 'creative_services',
        title: kind.caption(event),
        width: 640,
        height: 360,
      },
    });
  }
  return videos;
}

const SITE_PICTURES = [
  {
    base: 'panel-creative',
    kind: 'titleCard',
    seed: 71,
    palette: 1,
    w: 720,
    h: 450,
    title: 'Creative Services',
    subtitle: 'Video and presentations',
  },
  { base: 'panel-event', kind: 'generalSession', seed: 72, palette: 0, w: 720, h: 450, title: 'LIVE' },
  { base: 'panel-planner', kind: 'breakout', seed: 73, palette: 4, w: 720, h: 450, title: 'Speaker content' },
  {
    base: 'og',
    kind: 'titleCard',
    seed: 74,
    palette: 4,
    w: 1200,
    h: 630,
    title: 'Northbeam Event Productions',
    subtitle: 'Event production, audiovisual and video',
    ogOnly: true,
  },
];

// ----------------------------------------------------------------------------------------------- encoding

function ffmpeg(argv) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...argv], {
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (error) =>
      reject(
        new Error(`ffmpeg could not be started (${error.message}); install it with: apt-get install ffmpeg`),
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`ffmpeg failed (${code}): ${err}`)),
    );
  });
}

const JPEG = ['-q:v', '8'];
const WEBP = ['-c:v', 'libwebp', '-quality', '70', '-compression_level', '6'];

/** Renders an SVG once and writes each output at its size (lanczos down-scaling), in one ffmpeg run. */
async function renderStill(svgFile, outputs) {
  const labels = outputs.map((_, i) => `o${i}`);
  const filter = `[0:v]format=rgb24,split=${outputs.length}${labels.map((l) => `[s${l}]`).join('')};${outputs
    .map((o, i) => `[s${labels[i]}]scale=${o.w}:${o.h}:flags=lanczos[${labels[i]}]`)
    .join(';')}`;
  const argv = ['-i', svgFile, '-filter_complex', filter];
  outputs.forEach((o, i) => {
    argv.push(
      '-map',
      `[${labels[i]}]`,
      '-frames:v',
      '1',
      ...(o.file.endsWith('.webp') ? WEBP : JPEG),
      o.file,
    );
  });
  await ffmpeg(argv);
}

async function photo(item, tmp) {
  const { w, h } = { w: item.entry.width, h: item.entry.height };
  const svg = join(tmp, `${item.base}.svg`);
  await writeFile(
    svg,
    sceneSvg({
      kind: item.kind,
      seed: item.seed,
      width: w,
      height: h,
      palette: item.palette,
      title: item.title,
    }),
  );
  const dir = join(mediaDir, item.entry.folder);
  const half = { w: w / 2, h: h / 2 };
  const thumb = item.entry.orient === 'portrait' ? { w: 320, h: 480 } : { w: 480, h: 320 };
  await renderStill(svg, [
    { file: join(dir, `${item.base}.jpg`), w, h },
    { file: join(dir, `${item.base}-1200.webp`), w, h },
    { file: join(dir, `${item.base}-600.webp`), ...half },
    { file: join(dir, `${item.base}_thumb.jpg`), ...thumb },
    { file: join(dir, `${item.base}_thumb.webp`), ...thumb },
  ]);
}

async function video(item, tmp) {
  const svg = join(tmp, `${item.base}.svg`);
  await writeFile(
    svg,
    sceneSvg({
      kind: 'titleCard',
      seed: item.seed,
      width: 1280,
      height: 720,
      palette: item.palette,
      title: item.title,
      subtitle: item.subtitle,
    }),
  );
  const dir = join(mediaDir, item.entry.folder);
  // A slow push-in with a fade from black: 4 s at 24 fps, no audio, small H.264 with the index up front.
  const frames = 96;
  const zoomIn = item.seed % 2 === 0;
  const z = zoomIn ? `1+0.12*on/${frames}` : `1.12-0.12*on/${frames}`;
  await ffmpeg([
    '-i',
    svg,
    '-vf',
    `zoompan=z='${z}':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=${frames}:s=640x360:fps=24,fade=t=in:st=0:d=0.6,fade=t=out:st=3.4:d=0.6,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-crf',
    '30',
    '-profile:v',
    'main',
    '-movflags',
    '+faststart',
    '-an',
    join(dir, `${item.base}.mp4`),
  ]);
  await renderStill(svg, [
    { file: join(dir, `${item.base}_thumb.jpg`), w: 480, h: 270 },
    { file: join(dir, `${item.base}_thumb.webp`), w: 480, h: 270 },
  ]);
}

async function sitePicture(item, tmp) {
  const svg = join(tmp, `${item.base}.svg`);
  await writeFile(
    svg,
    sceneSvg({
      kind: item.kind,
      seed: item.seed,
      width: item.w,
      height: item.h,
      palette: item.palette,
      title: item.title,
      subtitle: item.subtitle,
    }),
  );
  const dir = join(mediaDir, 'site');
  const outputs = item.ogOnly
    ? [{ file: join(dir, `${item.base}.jpg`), w: item.w, h: item.h }]
    : [
        { file: join(dir, `${item.base}.jpg`), w: item.w, h: item.h },
        { file: join(dir, `${item.base}.webp`), w: item.w, h: item.h },
        { file: join(dir, `${item.base}-360.webp`), w: item.w / 2, h: item.h / 2 },
      ];
  await renderStill(svg, outputs);
}

async function productPicture(item) {
  // sharp (the API's image library, with librsvg inside) draws these: they need no ffmpeg.
  const { default: sharp } = await import('sharp');
  await sharp(Buffer.from(item.draw()))
    .webp({ quality: 80, effort: 6 })
    .toFile(join(mediaDir, 'products', `${item.base}.webp`));
}

async function pool(items, worker) {
  let next = 0;
  let done = 0;
  const run = async () => {
    while (next < items.length) {
      const item = items[next++];
      await worker(item);
      done++;
      if (done % 10 === 0 || done === items.length) process.stdout.write(`  ${done}/${items.length}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, run));
}

async function folderSize(dir) {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

const only = args.only;
const tmp = await mkdtemp(join(tmpdir(), 'avp-media-'));
try {
  const photos = photoCatalogue();
  const videos = videoCatalogue();
  for (const folder of ['event_production', 'creative_services', 'site', 'products'])
    await mkdir(join(mediaDir, folder), { recursive: true });
  if (!only || only === 'site') {
    console.log('Site pictures');
    await pool(SITE_PICTURES, (item) => sitePicture(item, tmp));
  }
  if (!only || only === 'products') {
    console.log(`Product pictures (${PRODUCT_PICTURES.length})`);
    await pool(PRODUCT_PICTURES, (item) => productPicture(item));
  }
  if (!only || only === 'photos') {
    console.log(`Event production photos (${photos.length})`);
    await pool(photos, (item) => photo(item, tmp));
  }
  if (!only || only === 'videos') {
    console.log(`Creative services videos (${videos.length})`);
    await pool(videos, (item) => video(item, tmp));
  }
  const manifest = {
    $comment:
      'Generated by build/media/generate.mjs (npm run media). Gallery items of SPEC §3 with a caption and the media size.',
    creativeServices: videos.map((v) => v.entry),
    eventProduction: photos.map((p) => p.entry),
  };
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Manifest: ${manifestFile}`);
  console.log(`Media folder: ${((await folderSize(mediaDir)) / 1024 / 1024).toFixed(2)} MB`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
