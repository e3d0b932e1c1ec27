// Summarises a V8 CPU profile (`--cpu-prof`, e.g. from `BENCH_CPU_PROF=<dir> node bench/checks.mjs …`): the
// functions with the most self time, and the self time per package or source folder, so a profile can be read
// (and written down in bench/README.md) without a browser's profiler.
//
// `node bench/profile-top.mjs <file.cpuprofile> [rows]`
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));

/** Microseconds of self time per node id, from the samples and the gaps between them. */
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}

/** Where a function lives: a package under node_modules, a folder of our source, or V8/Node's own code. */
function placeOf(url) {
  if (!url) return '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  const dist = url.match(/dist\/(.*)$/);
  return dist ? `dist/${dist[1]}` : url.replace(/^file:\/\//, '');
}

const byFunction = new Map();
const byPlace = new Map();
let total = 0;
let idle = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') {
    idle += us;
    continue;
  }
  total += us;
  const key = `${functionName || '(anonymous)'}  ${placeOf(url)}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const place = functionName.startsWith('(') ? functionName : placeOf(url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}

const seconds = (profile.endTime - profile.startTime) / 1e6;
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(
  `${file}: ${seconds.toFixed(1)} s profiled, ${(total / 1e6).toFixed(2)} s busy (${((100 * total) / 1e6 / seconds).toFixed(1)} % of a core), ${(idle / 1e6).toFixed(1)} s idle`,
);
console.log('\nself time by function');
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, rows))
  console.log(`${pct(us)}  ${key}`);
console.log('\nself time by place');
for (const [key, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, rows))
  console.log(`${pct(us)}  ${key}`);
