// A closed-loop HTTP/1.1 load generator for the API benchmark, light enough to share two cores with what it
// measures: each connection is a keep-alive socket that writes one GET, reads the whole answer (its head, then
// the body by content-length or chunks) and only then writes the next, as `wrk` does. node:http's agent and
// client cost the benchmark process 0.10–0.19 ms of CPU a request here, as much as PostgreSQL's share of a small
// request; this costs a fraction of that (bench/README.md, "API with 100,000 monitors stored").
//
// Bounded: every connection stops at the deadline or when `maxRequests` have been sent, and an answer that does
// not come within `timeoutMs` counts as an error and closes its socket.
import net from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

/** Reads one answer at a time off a socket: `feed` each chunk, `onAnswer(status)` for each whole answer. */
function answerReader(onAnswer) {
  let buffer = Buffer.alloc(0);
  let status = 0;
  let bodyLeft = -1; // bytes of body still to come; -1 while reading the head, -2 chunked
  return function feed(chunk) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (bodyLeft === -1) {
        const end = buffer.indexOf(HEAD_END);
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString('latin1');
        status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (length) bodyLeft = Number(length[1]);
        else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) bodyLeft = -2;
        else bodyLeft = 0;
        buffer = buffer.subarray(end + HEAD_END.length);
      }
      if (bodyLeft === -2) {
        // The last chunk is "0\r\n\r\n"; a body of chunks ends with it after its last chunk's CRLF.
        const end = buffer.indexOf(CHUNKED_END);
        if (end === -1) return;
        buffer = buffer.subarray(end + CHUNKED_END.length);
      } else {
        if (buffer.length < bodyLeft) return;
        buffer = buffer.subarray(bodyLeft);
      }
      bodyLeft = -1;
      onAnswer(status);
    }
  };
}

/**
 * `connections` sockets to `host:port`, each sending `GET makePath()` one after another until `durationMs` has
 * passed or `maxRequests` have been sent in all. Returns every request's latency (ms) and the errors (an answer
 * other than 200, a lost connection or a timeout).
 */
export async function closedLoop({
  host = '127.0.0.1',
  port,
  makePath,
  headers = {},
  connections = 100,
  durationMs,
  maxRequests = 1_000_000,
  timeoutMs = 30_000,
}) {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const requestFor = (path) => `GET ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${extra}\r\n`;
  const latencies = [];
  let errors = 0;
  let sent = 0;
  const until = performance.now() + durationMs;

  const connection = () =>
    new Promise((resolve) => {
      let socket;
      let startedAt = 0;
      let inFlight = false;
      let timer;
      const done = () => performance.now() >= until || sent >= maxRequests;
      const next = () => {
        if (done()) {
          socket.end();
          resolve();
          return;
        }
        sent += 1;
        inFlight = true;
        startedAt = performance.now();
        timer = setTimeout(() => socket.destroy(new Error('timeout')), timeoutMs);
        socket.write(requestFor(makePath()));
      };
      const open = () => {
        socket = net.connect({ host, port, noDelay: true });
        let connected = false;
        const feed = answerReader((status) => {
          clearTimeout(timer);
          inFlight = false;
          latencies.push(performance.now() - startedAt);
          if (status !== 200) errors += 1;
          next();
        });
        socket.on('data', feed);
        socket.once('connect', () => {
          connected = true;
          next();
        });
        socket.once('error', () => undefined);
        socket.once('close', () => {
          clearTimeout(timer);
          if (inFlight) {
            // Lost mid-answer: that request failed.
            inFlight = false;
            errors += 1;
            latencies.push(performance.now() - startedAt);
          } else if (!connected) {
            errors += 1;
          }
          if (done()) {
            resolve();
            return;
          }
          // Carry on with a new connection (after a pause if this one never opened).
          setTimeout(open, connected ? 0 : 100);
        });
      };
      open();
    });

  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, connection));
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}
