// `node test/bench/profile-summary.mjs FILE.cpuprofile [--top N] [--from µs --to µs]`: where a V8 CPU
// profile (node --cpu-prof) spent its time, as self time summed by function and by package, so two runs
// can be compared at a glance. --from and --to keep the samples of one stretch (microseconds of the
// monotonic clock, as bench:upload prints them for its upload), leaving out start-up and shut-down.
// Self time is the samples whose top frame is that function; "(program)", "(garbage collector)" and
// "(idle)" are V8's own buckets. A package is the node_modules folder a script lies in, "node:" for
// Node's own JavaScript, "app" for ours, and "(native)" for frames with no script (C++ built-ins and
// bindings, such as the fs and crypto calls). A third table charges each sample to the nearest function
// of ours on its stack: what our code caused, through the libraries it called (work resumed by a
// callback or promise has only the library's frames, so it lands under "no frame of ours").
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export function summarise(profile, { from = -Infinity, to = Infinity } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
  });
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const fns = new Map();
  const pkgs = new Map();
  const ours = new Map();
  let total = 0;
  for (const [id, micros] of selfMicros) {
    const { callFrame: f } = byId.get(id);
    total += micros;
    let up = id;
    while (up !== undefined && packageOf(byId.get(up).callFrame.url, '') !== 'app') up = parent.get(up);
    const vm = !f.url && f.functionName.startsWith('(');
    const mine = vm
      ? f.functionName
      : up === undefined
        ? '(no frame of ours)'
        : nameOf(byId.get(up).callFrame);
    ours.set(mine, (ours.get(mine) ?? 0) + micros);
    const pkg = packageOf(f.url, f.functionName);
    const fn = nameOf(f);
    fns.set(fn, (fns.get(fn) ?? 0) + micros);
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + micros);
  }
  const busy = total - (pkgs.get('(idle)') ?? 0);
  const rank = (m) =>
    [...m]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .map(([name, micros]) => ({
        name,
        ms: Math.round(micros / 1000),
        '% of busy': +((100 * micros) / busy).toFixed(1),
      }));
  return {
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    functions: rank(fns),
    packages: rank(pkgs),
    ours: rank(ours),
  };
}

function nameOf(f) {
  const file = f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(api|shared)\/dist\//, '$1/');
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
}

function packageOf(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node:';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return m ? m[1] : 'app';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' }, from: { type: 'string' }, to: { type: 'string' } },
  });
  for (const file of positionals) {
    const s = summarise(JSON.parse(readFileSync(file, 'utf8')), {
      from: values.from === undefined ? undefined : Number(values.from),
      to: values.to === undefined ? undefined : Number(values.to),
    });
    console.log(`${file}: ${s.totalMs} ms sampled, ${s.busyMs} ms of them not idle`);
    console.log('\nself time by package (idle left out)');
    console.table(s.packages.slice(0, 15));
    console.log('\nself time by function (idle left out)');
    console.table(s.functions.slice(0, Number(values.top)));
    console.log('\nself time charged to the nearest function of ours on the stack (idle left out)');
    console.table(s.ours.slice(0, Number(values.top)));
  }
}
