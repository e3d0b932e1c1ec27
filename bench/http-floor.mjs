// The floor under a check's CPU on this machine (issue 14): what one GET on a fresh connection costs the process
// that makes it, with no engine, no database and no scheduling around it. Against the checks benchmark's own
// target (bench/target-server.mjs, a separate process answering 200 with `connection: close`), R requests with C
// in flight, three ways:
// - `raw socket`: `net.connect`, a hand-written request, the socket closed at the end of the answer's headers: the
//   least a Node process can spend on a fresh TCP connection (not a usable HTTP client);
// - `node:http`: `http.request` with `agent: false`, the answer's body destroyed unread, as the website checker did
//   before its own client (services/website/http-get.ts);
// - `website checker`: Vigil's own `check()` (apps/server/src/services/website/website.check.ts, through tsx) with
//   the checks benchmark's conditions (only `http_status` on): the request, its deadline and the verdict.
// CPU per request is the process's own user + system time (`process.cpuUsage`) over the measured requests, after
// a warm-up; the target's CPU is not counted. Each way runs K times, alternating, and the median is kept.
// Usage: `node bench/http-floor.mjs` (or `npm run bench -- http-floor`); BENCH_FLOOR_REQUESTS (20,000),
// BENCH_FLOOR_CONCURRENCY (50), BENCH_FLOOR_RUNS (3).
import http from 'node:http';
import net from 'node:net';
import { tsImport } from 'tsx/esm/api';
import { CONDITIONS, num, spawnChild, stopChild } from './lib.mjs';

const PORT = 3390;
const REQUESTS = num('BENCH_FLOOR_REQUESTS', 20_000);
const CONCURRENCY = num('BENCH_FLOOR_CONCURRENCY', 50);
const RUNS = num('BENCH_FLOOR_RUNS', 3);
const WARM_UP = 2_000;

function rawSocket(path) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORT, '127.0.0.1');
    let head = '';
    socket.setEncoding('latin1');
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${PORT}\r\naccept: */*\r\nconnection: close\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk) => {
      head += chunk;
      if (head.includes('\r\n\r\n')) {
        socket.destroy();
        resolve();
      }
    });
    socket.on('error', reject);
  });
}

function nodeHttp(path) {
  return new Promise((resolve, reject) => {
    const request = http.request(`http://127.0.0.1:${PORT}${path}`, {
      agent: false,
      headers: { accept: '*/*', 'accept-encoding': 'identity' },
    });
    request.on('response', (message) => {
      message.destroy();
      resolve();
    });
    request.on('error', reject);
    request.end();
  });
}

function websiteChecker(checker) {
  const signal = new AbortController().signal;
  return async (path) => {
    const outcome = await checker.check({
      target: { url: `http://127.0.0.1:${PORT}${path}` },
      conditions: CONDITIONS,
      now: new Date(),
      slotAt: new Date(),
      signal,
    });
    if (outcome.statusCode !== 200) throw new Error(`The target answered ${outcome.statusCode}`);
  };
}

/** `count` requests, `CONCURRENCY` at a time, each to its own path (as each monitor has its own URL). */
async function drive(get, count, label) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await get(`/floor/${label}/${next++}`);
    }),
  );
}

async function measure(label, get) {
  await drive(get, WARM_UP, label);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await drive(get, REQUESTS, label);
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  return { cpuUs: (used.user + used.system) / REQUESTS, perSecond: REQUESTS / seconds };
}

export async function benchHttpFloor() {
  const target = spawnChild(
    ['bench/target-server.mjs', String(PORT)],
    {},
    { readyLine: 'ready', name: 'target' },
  );
  await target.ready;
  try {
    const { createWebsiteChecker } = await tsImport(
      '../apps/server/src/services/website/website.check.ts',
      import.meta.url,
    );
    const ways = [
      ['raw socket', rawSocket],
      ['node:http', nodeHttp],
      ['website checker', websiteChecker(createWebsiteChecker())],
    ];
    const runs = new Map(ways.map(([label]) => [label, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const [label, get] of ways) {
        const result = await measure(label.replace(/\W+/g, '-'), get);
        console.error(JSON.stringify({ way: label, run: run + 1, ...result }));
        runs.get(label).push(result);
      }
    }
    return ways.map(([label]) => {
      const sorted = runs.get(label).sort((a, b) => a.cpuUs - b.cpuUs);
      return { way: label, runs: sorted, median: sorted[sorted.length >> 1] };
    });
  } finally {
    await stopChild(target.child);
  }
}

export function printHttpFloor(rows) {
  console.log(
    `\n## A GET on a fresh connection (${REQUESTS} requests, ${CONCURRENCY} at once, ${RUNS} runs)\n`,
  );
  console.log('| way | CPU per request, median (all runs) | requests/s, median |');
  console.log('|---|---|---|');
  for (const { way, runs, median } of rows) {
    const all = runs.map((r) => r.cpuUs.toFixed(0)).join(', ');
    console.log(`| ${way} | ${median.cpuUs.toFixed(0)} µs (${all}) | ${median.perSecond.toFixed(0)} |`);
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  printHttpFloor(await benchHttpFloor());
  process.exit(0);
}
