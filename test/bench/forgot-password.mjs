// `npm run bench:forgot-password`: how long POST /api/auth/forgot-password takes for an address that has
// an account and for one that has not, against the real server (SQLite in a throwaway data folder). The two
// should be alike: the answer must not tell which addresses are registered. A benchmark: it prints figures
// and never fails on them; it is not part of `npm test`.
//
// The requests alternate between the two kinds, one at a time, each from its own client address (the server
// trusts X-Forwarded-For here) and each known address asked once, so no rate limit is reached.
//
// Environment: BENCH_ROUNDS (pairs of requests, default 40), BENCH_SKIP_BUILD=1 to use api/dist as it is.
import { compileTypeScript } from '../../build/scripts/lib.mjs';
import { startBenchServer } from './server.mjs';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 40));
const WARM_UP = 5;
const PASSWORD = 'Bench passphrase 2026!';

if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();

const { url, stop } = await startBenchServer({
  name: 'forgot-password',
  env: { TRUST_PROXY: 'true' },
  stdout: 'ignore',
});

let client = 0;
function post(path, body) {
  client += 1;
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
    },
    body: JSON.stringify(body),
  });
}

async function timed(email) {
  const start = process.hrtime.bigint();
  const res = await post('/api/auth/forgot-password', { email });
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 200) throw new Error(`forgot-password for ${email}: ${res.status}`);
  return ms;
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  return `median ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms, mean ${mean.toFixed(2)} ms`;
}

try {
  const total = ROUNDS + WARM_UP;
  for (let i = 0; i < total; i++) {
    const res = await post('/api/auth/register', {
      email: `known${i}@example.com`,
      firstname: 'Bench',
      lastname: 'Mark',
      company: 'Loopback',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  }
  const known = [];
  const unknown = [];
  for (let i = 0; i < total; i++) {
    // Alternating which goes first keeps a drift in the machine's load from favouring one kind.
    const pair =
      i % 2 === 0
        ? [await timed(`known${i}@example.com`), await timed(`nobody${i}@example.com`)]
        : [await timed(`nobody${i}@example.com`), await timed(`known${i}@example.com`)].reverse();
    if (i < WARM_UP) continue;
    known.push(pair[0]);
    unknown.push(pair[1]);
  }
  console.log(`forgot-password, ${ROUNDS} requests of each kind:`);
  console.log(`  address with an account:    ${summary(known)}`);
  console.log(`  address without an account: ${summary(unknown)}`);
} finally {
  await stop();
}
