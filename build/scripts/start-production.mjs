// `npm run start:production`: what the Docker image does, without Docker (README 'Run in production').
// Refuses the demo's settings, builds what is missing or stale (not with --no-build, as in the image,
// which built at image time), applies the migrations, then runs the server with NODE_ENV=production.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWeb, compileTypeScript, root, SERVER_NODE_FLAGS, webIsStale } from './lib.mjs';
import { runServer } from './run-server.mjs';

/**
 * Values that must never reach production: the placeholders of the README, docs/avp.service and
 * docs/Caddyfile, and the fixed secret the tests use. Any value holding CHANGE-ME is a placeholder too.
 */
export const DEMO_VALUES = new Set([
  'test-session-secret-that-is-long-enough-0123456789',
  'CHANGE-ME-generate-with-openssl-rand-base64-48',
  'sk_live_CHANGE-ME',
  'pk_live_CHANGE-ME',
  'whsec_CHANGE-ME',
]);

const PLACEHOLDER = /change-?me/i;

// Settings that are secrets: a placeholder in any of them stops the start.
const SECRETS = [
  'SESSION_SECRET',
  'DATABASE_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'METRICS_TOKEN',
  'BOX_CLIENT_SECRET',
  'AWS_SECRET_ACCESS_KEY',
];

const set = (value) => value !== undefined && value.trim() !== '';

/**
 * What stops a production start, one line each (empty: fine), and what is only worth a warning. Reads
 * the environment as the server will; the server then validates every setting's form itself.
 */
export function productionProblems(env) {
  const problems = [];
  const warnings = [];
  const secret = env.SESSION_SECRET?.trim();
  if (!set(secret)) {
    problems.push(
      'SESSION_SECRET is not set: generate one (openssl rand -base64 48) and set the same value on every machine; ' +
        'a secret generated into DATA_DIR is lost with that folder, and with it every session and stored Stripe key.',
    );
  } else if (secret.length < 32 || new Set(secret).size < 12) {
    problems.push('SESSION_SECRET is too weak: use at least 32 random characters (openssl rand -base64 48).');
  }
  for (const name of SECRETS) {
    const value = env[name]?.trim();
    if (set(value) && (DEMO_VALUES.has(value) || PLACEHOLDER.test(value))) {
      problems.push(`${name} is a demo or placeholder value: set the real one.`);
    }
  }
  const stripe = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'];
  if (!stripe.some((name) => set(env[name]))) {
    problems.push(
      'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are not set: the built-in test gateway ' +
        'would take the test cards (4242 4242 4242 4242) as payment.',
    );
  } else if (/^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY?.trim() ?? '')) {
    warnings.push('STRIPE_SECRET_KEY is a test-mode key: no real payment will be taken.');
  }
  const publicUrl = URL.parse(env.PUBLIC_URL?.trim() ?? '');
  if (publicUrl === null || publicUrl.protocol !== 'https:') {
    problems.push(
      'PUBLIC_URL must be the https:// address clients reach (behind nginx or Caddy, which hold the certificate).',
    );
  }
  if (!set(env.SMTP_URL)) {
    problems.push(
      'SMTP_URL is not set: e-mail would be written to files under DATA_DIR/mail instead of sent.',
    );
  }
  if (!set(env.TRUST_PROXY) || env.TRUST_PROXY.trim().toLowerCase() === 'false') {
    warnings.push(
      'TRUST_PROXY is not set: behind nginx or Caddy every client shares the proxy address in the per-address limits.',
    );
  }
  return { problems, warnings };
}

function runNode(args, env) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function main() {
  const noBuild = process.argv.includes('--no-build');
  const { problems, warnings } = productionProblems(process.env);
  for (const line of warnings) console.warn(`Warning: ${line}`);
  if (problems.length > 0) {
    for (const line of problems) console.error(`Refusing to start in production: ${line}`);
    console.error("See README 'Run in production' for every setting.");
    process.exit(1);
  }
  // A production database starts empty of demo stores and accounts unless SEED_DEMO says otherwise.
  const env = { SEED_DEMO: 'false', ...process.env, NODE_ENV: 'production' };

  if (!noBuild) {
    // tsc -b is incremental: when nothing changed it only compares timestamps.
    compileTypeScript();
    // A bundle built elsewhere (WEB_DIST_DIR) is used as it is; the default one is rebuilt when stale.
    if (!set(process.env.WEB_DIST_DIR) && webIsStale()) {
      console.log('Building the web app…');
      buildWeb();
    }
  }
  const server = join(root, 'api', 'dist', 'server.js');
  const webDist = set(process.env.WEB_DIST_DIR)
    ? resolve(process.env.WEB_DIST_DIR)
    : join(root, 'web', 'dist');
  for (const [file, what] of [
    [server, 'the API build'],
    [join(webDist, 'index.html'), 'the web app build'],
  ]) {
    if (!existsSync(file)) {
      console.error(`Refusing to start in production: ${what} is missing (${file}); run npm run build.`);
      process.exit(1);
    }
  }
  runNode([join(root, 'api', 'dist', 'cli', 'migrate.js')], env);
  runServer([...SERVER_NODE_FLAGS, server], { env });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
