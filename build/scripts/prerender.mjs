// Prerenders every public page of the web app into complete HTML, after `vite build` (npm run build and the
// Playwright global setup both run it):
//
//   node build/scripts/prerender.mjs [--dist DIR]        DIR defaults to web/dist
//
// 1. builds web/src/entry-server.tsx for Node (`vite build --ssr`, into web/node_modules/.cache so that React and
//    the router resolve from the workspace);
// 2. renders each path of web/src/content/pages.ts, and the not-found page, with React's server renderer,
//    waiting for the code-split modules;
// 3. writes DIR/prerender/<name>.html from DIR/index.html with the marketing pages' script
//    (web/src/marketing-entry.tsx, which hydrates the page's islands only) in place of the full app's: the
//    page's title, description, canonical URL, robots, Open Graph and Twitter tags, JSON-LD for the company
//    and its offices, the stylesheets of the modules the page used (from Vite's manifest; no script of
//    theirs: an island loads its code when a visitor reaches for it), and the HTML inside #root;
// 4. writes DIR/prerender/manifest.json, which the server (api/src/http/web.ts) reads to answer those paths,
//    /sitemap.xml and /robots.txt;
// 5. stores a Brotli (.br) and a gzip (.gz) copy beside each script and stylesheet of DIR/assets, which the
//    server sends to browsers that accept them (Brotli quality PRERENDER_BROTLI_QUALITY, default 11; the
//    browser tests' throwaway build uses 5).
//
// Absolute URLs use the origin of PUBLIC_URL when set at build time, else the site's production address
// (content/site.ts); the server replaces that origin with its own PUBLIC_URL when it sends a page.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const webDir = join(root, 'web');

function argValue(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const escapeHtml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON inside <script>: '<' escaped so no '</script>' can close it early. */
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

/** 'creative_services' → 'creative_services.html', '/' → 'index.html'. */
export function fileNameFor(path) {
  return path === '/' ? 'index.html' : `${path.slice(1).replace(/\//g, '_')}.html`;
}

/** The marketing pages' script, an entry of web/vite.config.ts. */
export const MARKETING_ENTRY = 'src/marketing-entry.tsx';

/** An entry's chunk, its static imports and their stylesheets: what a page loading that entry loads anyway. */
export function entryAssets(manifest, entryKey) {
  const entry = manifest[entryKey];
  if (!entry?.isEntry) throw new Error(`prerender: ${entryKey} is not an entry of Vite's build manifest`);
  const js = [];
  const css = [];
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    js.push(chunk.file);
    for (const file of chunk.css ?? []) if (!css.includes(file)) css.push(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return { file: entry.file, js, css };
}

/** The chunk files and stylesheets a set of modules needs, from Vite's build manifest, minus the entry's own. */
export function assetsFor(manifest, moduleIds, entryKey = MARKETING_ENTRY) {
  const entry = entryAssets(manifest, entryKey);
  const skip = new Set([...entry.js, ...entry.css]);
  const js = new Set();
  const css = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: ${key} is not in Vite's build manifest`);
    if (!chunk.isEntry) {
      if (!skip.has(chunk.file)) js.add(chunk.file);
      for (const file of chunk.css ?? []) if (!skip.has(file)) css.add(file);
    }
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const id of moduleIds) visit(id);
  return { js: [...js], css: [...css] };
}

function structuredData(site, origin) {
  const org = `${origin}/#organization`;
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Organization',
        '@id': org,
        name: site.name,
        url: `${origin}/`,
        logo: `${origin}/favicon.svg`,
        image: `${origin}/media/site/og.jpg`,
        description: site.description,
        foundingDate: String(site.foundingYear),
        email: site.email,
        telephone: site.phoneE164,
        sameAs: site.social.map((s) => s.href),
        address: postalAddress(site.offices[0]),
        department: site.offices.map((office) => ({
          '@id': `${origin}/#office-${office.name.toLowerCase()}`,
        })),
      },
      ...site.offices.map((office) => ({
        '@type': 'LocalBusiness',
        '@id': `${origin}/#office-${office.name.toLowerCase()}`,
        name: `${site.name}, ${office.label}`,
        url: `${origin}/contact`,
        image: `${origin}/media/site/og.jpg`,
        telephone: office.phoneE164,
        email: site.email,
        address: postalAddress(office),
        parentOrganization: { '@id': org },
      })),
      {
        '@type': 'WebSite',
        '@id': `${origin}/#website`,
        url: `${origin}/`,
        name: site.name,
        publisher: { '@id': org },
      },
    ],
  };
}

function postalAddress(office) {
  return {
    '@type': 'PostalAddress',
    streetAddress: office.street,
    addressLocality: office.city,
    addressRegion: office.region,
    postalCode: office.postalCode,
    addressCountry: office.country,
  };
}

function headTags({ meta, site, origin, title, canonical, assets, notFound }) {
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="robots" content="${meta.indexable && !notFound ? 'index, follow' : 'noindex, follow'}" />`,
  ];
  if (canonical) tags.push(`<link rel="canonical" href="${escapeHtml(canonical)}" />`);
  tags.push(
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(site.name)}" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
  );
  if (canonical) tags.push(`<meta property="og:url" content="${escapeHtml(canonical)}" />`);
  tags.push(
    `<meta property="og:image" content="${origin}/media/site/og.jpg" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta property="og:image:alt" content="${escapeHtml(site.name)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeHtml(title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="twitter:image" content="${origin}/media/site/og.jpg" />`,
  );
  for (const file of assets.css) tags.push(`<link rel="stylesheet" crossorigin href="/${file}" />`);
  tags.push(`<script type="application/ld+json">${scriptJson(structuredData(site, origin))}</script>`);
  return tags.join('\n    ');
}

/**
 * index.html as Vite built it, with the marketing entry's script, module preloads and stylesheets in place of
 * the full app's: a marketing page never loads the app.
 */
export function marketingTemplate(template, manifest) {
  const entry = entryAssets(manifest, MARKETING_ENTRY);
  const stripped = template
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="(?:modulepreload|stylesheet)"[^>]*>/g, '');
  if (stripped.includes('<script')) throw new Error('prerender: index.html has a script it does not know');
  // Low priority: the page is whole without its script (the islands only wake on a visitor's first
  // gesture), so the stylesheet and the hero picture should never wait behind it on a slow link.
  const tags = [
    `<script type="module" crossorigin fetchpriority="low" src="/${entry.file}"></script>`,
    ...entry.js
      .filter((file) => file !== entry.file)
      .map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`),
    ...entry.css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
  ];
  return stripped.replace('</head>', `  ${tags.join('\n    ')}\n  </head>`);
}

export function injectPage(template, { head, html }) {
  const withoutDefaults = template
    .replace(/\s*<title>[\s\S]*?<\/title>/, '')
    .replace(/\s*<meta\s+name="description"[\s\S]*?\/>/, '');
  const root = '<div id="root"></div>';
  if (!withoutDefaults.includes(root))
    throw new Error('prerender: index.html has no empty <div id="root"></div>');
  return withoutDefaults
    .replace('</head>', `  ${head}\n  </head>`)
    .replace(root, `<div id="root">${html}</div>`);
}

/** Writes file.br and file.gz beside every .js and .css under DIR/assets; returns the bytes before and after. */
export async function precompressAssets(distDir) {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const dir = join(distDir, 'assets');
  let raw = 0;
  let br = 0;
  for (const name of await readdir(dir)) {
    if (!/\.(js|css)$/.test(name)) continue;
    const bytes = await readFile(join(dir, name));
    const [b, g] = await Promise.all([
      brotli(bytes, {
        params: {
          // 11, the smallest files, for production; the browser tests' throwaway build asks for less (5 takes
          // some 1/25 of the time and makes files 10% larger), as they check that .br is served, not its size.
          [zlibConstants.BROTLI_PARAM_QUALITY]: Number(process.env.PRERENDER_BROTLI_QUALITY) || 11,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gz(bytes, { level: 9 }),
    ]);
    await writeFile(join(dir, `${name}.br`), b);
    await writeFile(join(dir, `${name}.gz`), g);
    raw += bytes.length;
    br += b.length;
  }
  return { raw, br };
}

export async function prerender({ distDir = join(webDir, 'dist'), log = console.log } = {}) {
  const started = Date.now();
  // Inside web/ so that the bundle's bare imports resolve like the app's (web/node_modules, then the root's).
  // One folder per run, so builds running side by side (two test runs) never empty each other's bundle.
  const ssrOut = join(webDir, 'node_modules', '.cache', `avp-prerender-${process.pid}`);
  const { build } = await import('vite');
  await build({
    root: webDir,
    configFile: join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      ssr: 'src/entry-server.tsx',
      outDir: ssrOut,
      emptyOutDir: true,
      sourcemap: false,
      manifest: false,
      copyPublicDir: false,
    },
  });
  // No cache-busting query: the bundle's chunks import the entry by its plain URL, and two URLs would make two
  // copies of its modules (the folder is new for every run anyway).
  const entry = await import(pathToFileURL(join(ssrOut, 'entry-server.js')).href);
  const { PAGES, NOT_FOUND_META, site, render } = entry;

  const manifest = JSON.parse(await readFile(join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const template = marketingTemplate(await readFile(join(distDir, 'index.html'), 'utf8'), manifest);
  const origin = (process.env.PUBLIC_URL || site.url).replace(/\/+$/, '');
  const outDir = join(distDir, 'prerender');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const pages = [];
  // Paths the built app routes that the route table leaves out: the widget showcase of VITE_UI_SHOWCASE
  // builds. The not-found page loads only the marketing script, so these get the app's shell instead.
  const appPaths = process.env.VITE_UI_SHOWCASE === 'true' ? ['/ui'] : [];
  const targets = [...PAGES.map((meta) => ({ meta, url: meta.path, notFound: false }))];
  targets.push({ meta: NOT_FOUND_META, url: '/__prerender/not-found', notFound: true });
  for (const { meta, url, notFound } of targets) {
    const { html, modules } = await render(url);
    if (!html.includes('<main')) throw new Error(`prerender: ${url} rendered no <main>`);
    // The CSP allows no inline script, and a page must be complete: no boundary left pending or failed.
    if (/<script(?![^>]*type="application\/ld\+json")/.test(html) || /<!--\$[?!]-->/.test(html)) {
      throw new Error(`prerender: ${url} has an unfinished Suspense boundary or an inline script`);
    }
    const assets = assetsFor(manifest, modules);
    const title = notFound
      ? `${meta.title} | ${site.name}`
      : meta.path === '/' || meta.canonicalPath === '/'
        ? `${site.name}: ${meta.title}`
        : `${meta.title} | ${site.name}`;
    const canonicalPath = meta.canonicalPath ?? meta.path;
    const canonical = notFound ? undefined : `${origin}${canonicalPath}`;
    const head = headTags({ meta, site, origin, title, canonical, assets, notFound });
    const file = notFound ? '404.html' : fileNameFor(meta.path);
    await writeFile(join(outDir, file), injectPage(template, { head, html }));
    if (!notFound) pages.push({ path: meta.path, file, canonicalPath, indexable: meta.indexable });
  }
  await writeFile(
    join(outDir, 'manifest.json'),
    `${JSON.stringify({ origin, generatedAt: new Date().toISOString(), pages, notFound: '404.html', appPaths }, null, 2)}\n`,
  );
  await rm(ssrOut, { recursive: true, force: true });
  const sizes = await precompressAssets(distDir);
  log(
    `Prerendered ${pages.length} pages and the not-found page into ${outDir}; compressed the scripts and styles ` +
      `(${Math.round(sizes.raw / 1024)} KB, ${Math.round(sizes.br / 1024)} KB as Brotli) in ${Date.now() - started} ms`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = argValue('--dist');
  await prerender({ distDir: dist ? resolve(process.cwd(), dist) : undefined });
}
