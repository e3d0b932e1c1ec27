// The local website the checks benchmark watches: answers 200 to every GET, or 503 under /down/ once
// failing is switched on (POST /__fail). Keeps each monitor path's hit times so the benchmark can find two
// checks of one monitor in the same minute (a double check) without trusting the database. Loopback only.
// Run as a child process: `node bench/target-server.mjs <port>`; prints "ready" on stdout.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 3390);
const hits = new Map(); // path -> [ms, ...]
let failing = false;
let total = 0;

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (url.startsWith('/__')) {
    if (url === '/__fail' && request.method === 'POST') failing = true;
    if (url === '/__recover' && request.method === 'POST') failing = false;
    if (url === '/__hits') {
      // Every monitor path's hit times, for benchmarks that place each hit on its monitor's slot grid.
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(Object.fromEntries(hits)));
      return;
    }
    if (url.startsWith('/__stats')) {
      const since = Number(new URL(url, 'http://x').searchParams.get('since') ?? 0);
      const until = Number(new URL(url, 'http://x').searchParams.get('until') ?? Date.now());
      let inWindow = 0;
      let doubles = 0;
      for (const times of hits.values()) {
        let previous = -Infinity;
        for (const t of times) {
          if (t >= since && t < until) {
            inWindow += 1;
            // interval is 60 s: two hits of one path less than 30 s apart are two checks of one slot
            if (t - previous < 30_000) doubles += 1;
          }
          previous = t;
        }
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ total, paths: hits.size, inWindow, doubles }));
      return;
    }
    response.end('ok');
    return;
  }
  total += 1;
  const list = hits.get(url);
  if (list) list.push(Date.now());
  else hits.set(url, [Date.now()]);
  response.setHeader('connection', 'close');
  if (failing && url.startsWith('/down/')) {
    response.statusCode = 503;
    response.end('down');
  } else {
    response.end('ok');
  }
});
server.keepAliveTimeout = 1000;
server.listen(port, '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
