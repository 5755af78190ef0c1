// `npm run bench:lighthouse`: Lighthouse (mobile preset, simulated slow 4G and a 4x slower CPU) against the
// production build served by the real server, on four public pages, and on a reference: the
// prerendered `/` with its scripts taken out, served as a static page (its other files come from the real
// server through a small proxy, with the real `/`'s headers). Prints the four category scores, the
// JavaScript each page loads, its LCP and the LCP's ratio to the static page's. A benchmark: it prints
// figures and never fails on them.
//
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_RUNS (runs per page, median kept, default 1),
// LIGHTHOUSE_PAGES (comma-separated paths, default the four above) to iterate on fewer pages,
// BENCH_SKIP_BUILD=1 to use the current web/dist and api/dist as they are; with it, WEB_DIST_DIR (read by the
// server) measures another web build, e.g. one of a `git worktree` of an earlier commit.
import { request as httpRequest, createServer } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildWeb, compileTypeScript, webIsStale } from '../../build/scripts/lib.mjs';
import { startBenchServer } from './server.mjs';

const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',') ?? [
  '/',
  '/creative_services',
  '/event_production',
  '/contact',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const FIRST_LOAD_BUDGET_KB = 60;
const STATIC_ROW = 'static /';

const kb = (bytes) => (bytes / 1024).toFixed(1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.BENCH_SKIP_BUILD) {
  compileTypeScript();
  if (webIsStale()) {
    console.log('Building the web app…');
    buildWeb();
  }
}

/**
 * The static reference: GET / answers the real server's `/` without its script and module preloads (same
 * headers, Brotli when accepted); every other request is passed to the real server as it is.
 */
async function startStaticReference(target) {
  const real = await fetch(`${target}/`);
  const html = (await real.text())
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  const brotli = await promisify(brotliCompress)(html);
  const headers = Object.fromEntries(
    [...real.headers].filter(
      ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'etag'].includes(name),
    ),
  );
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
      const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
      res.writeHead(200, {
        ...headers,
        ...(br ? { 'content-encoding': 'br', vary: 'Accept-Encoding' } : {}),
      });
      res.end(br ? brotli : html);
      return;
    }
    const upstream = httpRequest(
      `${target}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(resolve)) };
}

const { url, stop } = await startBenchServer({ name: 'lighthouse' });
const reference = await startStaticReference(url);
const TARGETS = [
  ...PAGES.map((path) => ({ page: path, address: `${url}${path}` })),
  { page: STATIC_ROW, address: `${reference.url}/` },
];

let chrome;
try {
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const rows = [];
  for (const { page: path, address } of TARGETS) {
    const runs = [];
    let retries = 0;
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(address, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      if (result.lhr.runtimeError && retries < 2) {
        // A busy machine can starve a run (NO_FCP and the like): report it and try that run again.
        console.log(`${path}: run ${i + 1} failed (${result.lhr.runtimeError.code}); running it again`);
        retries++;
        i--;
        continue;
      }
      runs.push(result.lhr);
    }
    const scores = Object.fromEntries(
      CATEGORIES.map((c) => [
        c,
        median(runs.map((lhr) => Math.round((lhr.categories[c]?.score ?? 0) * 100))),
      ]),
    );
    const lhr = runs[0];
    const requests = lhr.audits['network-requests']?.details?.items ?? [];
    const scripts = requests.filter((r) => r.resourceType === 'Script');
    const failed = CATEGORIES.flatMap((c) =>
      Object.values(lhr.audits)
        .filter(
          (a) =>
            lhr.categories[c]?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0) &&
            a.score !== null &&
            a.score < 1 &&
            a.scoreDisplayMode === 'binary',
        )
        .map((a) => a.id),
    );
    rows.push({
      page: path,
      ...scores,
      jsFiles: scripts.length,
      jsTransferred: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      jsUncompressed: scripts.reduce((sum, r) => sum + (r.resourceSize ?? 0), 0),
      lcp: median(runs.map((l) => l.audits['largest-contentful-paint']?.numericValue ?? 0)),
      tbt: median(runs.map((l) => l.audits['total-blocking-time']?.numericValue ?? 0)),
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
      fcp: median(runs.map((l) => l.audits['first-contentful-paint']?.numericValue ?? 0)),
      lcpElement:
        lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet,
      failed,
      version: lhr.lighthouseVersion,
    });
  }

  console.log(
    `\nLighthouse ${rows[0]?.version ?? ''} · mobile preset (simulated throttling) · ${RUNS} run(s) per page, median\n`,
  );
  const header = [
    'page',
    'perf',
    'a11y',
    'best-pr.',
    'SEO',
    'JS files',
    'JS sent KB',
    'JS raw KB',
    'FCP ms',
    'LCP ms',
    'LCP/static',
    'TBT ms',
    'CLS',
  ];
  const staticLcp = rows.find((r) => r.page === STATIC_ROW)?.lcp ?? 0;
  const lines = rows.map((r) => [
    r.page,
    r.performance,
    r.accessibility,
    r['best-practices'],
    r.seo,
    r.jsFiles,
    kb(r.jsTransferred),
    kb(r.jsUncompressed),
    Math.round(r.fcp),
    Math.round(r.lcp),
    staticLcp > 0 ? (r.lcp / staticLcp).toFixed(2) : '-',
    Math.round(r.tbt),
    r.cls.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(fmt(header));
  for (const line of lines) console.log(fmt(line));
  console.log(
    `\nGoals: at most ${FIRST_LOAD_BUDGET_KB} KB of compressed JavaScript on a marketing page's first load; LCP within ` +
      `10% of the static page's (LCP/static at most 1.10).`,
  );
  for (const r of rows) if (r.lcpElement) console.log(`${r.page}: LCP element ${r.lcpElement}`);
  for (const r of rows)
    if (r.failed.length > 0) console.log(`${r.page}: audits not passed: ${r.failed.join(', ')}`);
} finally {
  await chrome?.kill();
  await reference.stop();
  await stop();
}
