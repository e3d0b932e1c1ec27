import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HEAD_BYTES, httpGet, type HttpGetOptions } from './http-get.ts';

/**
 * The client against servers that write exact bytes, split where a real network may split them: the answers a
 * check meets in the wild, not only the ones `node:http` would send.
 */

type Script = (socket: net.Socket, request: string) => unknown;

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that runs `script` once it has read a whole request head; it records the heads it read. */
async function rawServer(script: Script, host = '127.0.0.1') {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n') && !requests.includes(received)) {
        requests.push(received);
        void script(socket, received);
      }
    });
  });
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}`, port, requests };
}

const options = (withinMs = 10_000): HttpGetOptions => ({
  endsAt: performance.now() + withinMs,
  rejectUnauthorized: true,
  headers: ['user-agent: Vigil-Test', 'accept: */*'],
});

/** Writes each piece in its own TCP segment, a tick apart. */
async function writeApart(socket: net.Socket, pieces: (string | Buffer)[]) {
  socket.setNoDelay(true);
  for (const piece of pieces) {
    socket.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('httpGet', () => {
  it('sends one GET with the host, the path and query, the headers given and connection: close', async () => {
    const site = await rawServer((socket) => socket.end('HTTP/1.1 204 No Content\r\n\r\n'));
    const answer = await httpGet(new URL(`${site.url}/products/ünïcode?q=a b#top`), options());
    expect(answer.statusCode).toBe(204);
    expect(site.requests).toEqual([
      `GET /products/%C3%BCn%C3%AFcode?q=a%20b HTTP/1.1\r\nhost: 127.0.0.1:${site.port}\r\n` +
        'user-agent: Vigil-Test\r\naccept: */*\r\nconnection: close\r\n\r\n',
    ]);
    expect(await answer.readBody(100)).toEqual(Buffer.alloc(0));
  });

  it('reads a head that arrives a few bytes at a time, with its headers by lower-case name', async () => {
    const head =
      'HTTP/1.1 302 Found\r\nLocation: /next\r\nX-Many: first\r\nx-many: second\r\nContent-Length:   5  \r\n\r\nhello';
    const site = await rawServer((socket) => writeApart(socket, head.match(/.{1,7}/gs) ?? []));
    const answer = await httpGet(new URL(site.url), options());
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.get('location')).toBe('/next');
    expect(answer.headers.get('x-many')).toBe('first');
    expect(answer.headers.get('content-length')).toBe('5');
    expect(answer.certificateValidTo).toBeNull();
    expect((await answer.readBody(100)).toString()).toBe('hello');
  });

  it('reads a head sent one byte at a time, its blank line split over three reads', async () => {
    const head = 'HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\ngone';
    const site = await rawServer((socket) => writeApart(socket, [...head]));
    const answer = await httpGet(new URL(site.url), options());
    expect(answer.statusCode).toBe(404);
    expect((await answer.readBody(100)).toString()).toBe('gone');
  });

  it('skips informational answers (100, 103) and reads the final one', async () => {
    const site = await rawServer((socket) =>
      writeApart(socket, [
        'HTTP/1.1 100 Continue\r\n\r\n',
        'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 503 Service Unavailable\r\n',
        'Content-Length: 4\r\n\r\ndown',
      ]),
    );
    const answer = await httpGet(new URL(site.url), options());
    expect(answer.statusCode).toBe(503);
    expect(answer.headers.has('link')).toBe(false);
    expect((await answer.readBody(100)).toString()).toBe('down');
  });

  it('accepts heads whose lines end in a bare LF, and HTTP/1.0', async () => {
    const site = await rawServer((socket) => socket.end('HTTP/1.0 200\nServer: old\n\nold page'));
    const answer = await httpGet(new URL(site.url), options());
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.get('server')).toBe('old');
    expect((await answer.readBody(100)).toString()).toBe('old page');
  });

  it('decodes a chunked body split inside size lines and line breaks, with extensions and trailers', async () => {
    const site = await rawServer((socket) =>
      writeApart(socket, [
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n',
        '6;name=value\r\nAdd t',
        'o\r',
        '\n',
        'A\r\nxx cart xx\r\n1',
        '0\r\n',
        '0123456789abcdef\r\n0\r\nX-Trailer: yes\r\n\r\n',
      ]),
    );
    const answer = await httpGet(new URL(site.url), options());
    // The connection stays open after the last chunk: the body ends on its framing, not on the close.
    expect((await answer.readBody(1000)).toString()).toBe('Add toxx cart xx0123456789abcdef');
  });

  it('ends a body at its length even when the server keeps the connection open', async () => {
    const site = await rawServer((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef'),
    );
    const answer = await httpGet(new URL(site.url), options());
    expect((await answer.readBody(1000)).toString()).toBe('abc');
  });

  it('reads a body without length or chunks until the connection closes', async () => {
    const site = await rawServer((socket) =>
      writeApart(socket, ['HTTP/1.1 200 OK\r\n\r\n', 'part one, ', 'part two']).then(() => socket.end()),
    );
    const answer = await httpGet(new URL(site.url), options());
    expect((await answer.readBody(1000)).toString()).toBe('part one, part two');
  });

  it('stops at the byte limit and closes the connection', async () => {
    let closed!: Promise<void>;
    const site = await rawServer((socket) => {
      closed = new Promise((resolve) => socket.on('close', () => resolve()));
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      const timer = setInterval(() => socket.write('400\r\n' + 'x'.repeat(0x400) + '\r\n'), 1);
      socket.on('close', () => clearInterval(timer));
    });
    const answer = await httpGet(new URL(site.url), options());
    const body = await answer.readBody(10_000);
    expect(body.length).toBe(10_000);
    expect(body.toString()).toBe('x'.repeat(10_000));
    await closed;
  });

  it('holds no body for 204 and 304, nor for a zero length', async () => {
    for (const head of [
      'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n',
      'HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
    ]) {
      const site = await rawServer((socket) => socket.write(head));
      const answer = await httpGet(new URL(site.url), options());
      expect(await answer.readBody(100)).toEqual(Buffer.alloc(0));
    }
  });

  it('fails with ECONNRESET when the connection closes before the answer or before the end of the page', async () => {
    const silent = await rawServer((socket) => socket.end());
    await expect(httpGet(new URL(silent.url), options())).rejects.toMatchObject({ code: 'ECONNRESET' });

    const halfHead = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-'));
    await expect(httpGet(new URL(halfHead.url), options())).rejects.toMatchObject({ code: 'ECONNRESET' });

    const short = await rawServer((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'),
    );
    const answer = await httpGet(new URL(short.url), options());
    await expect(answer.readBody(1000)).rejects.toMatchObject({ code: 'ECONNRESET' });

    const unfinished = await rawServer((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'),
    );
    const chunked = await httpGet(new URL(unfinished.url), options());
    await expect(chunked.readBody(1000)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('fails with ERR_NOT_HTTP on an answer that is not HTTP/1.x, and says what came', async () => {
    const answers: [string, string][] = [
      ['SSH-2.0-OpenSSH_9.6\r\n\r\n', 'the answer starts "SSH-2.0-OpenSSH_9.6"'],
      ['HTTP/2 200\r\n\r\n', 'the answer starts "HTTP/2 200"'],
      ['HTTP/1.1 200 OK\r\nbroken header line\r\n\r\n', '"broken header line" is not a header'],
      [
        'HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 6\r\n\r\nhello',
        'the answer states two lengths',
      ],
      ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', '"-1" is not a length'],
    ];
    for (const [answer, why] of answers) {
      const site = await rawServer((socket) => socket.end(answer));
      await expect(httpGet(new URL(site.url), options())).rejects.toMatchObject({
        code: 'ERR_NOT_HTTP',
        message: `The answer is not HTTP/1.1: ${why}`,
      });
    }
    const badChunk = await rawServer((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'),
    );
    const answer = await httpGet(new URL(badChunk.url), options());
    await expect(answer.readBody(100)).rejects.toMatchObject({
      code: 'ERR_NOT_HTTP',
      message: 'The answer is not HTTP/1.1: "zz" is not a chunk size',
    });
  });

  it(`fails a head over ${MAX_HEAD_BYTES / 1024} KiB without waiting for its end`, async () => {
    const site = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      for (let i = 0; i < 100; i++) socket.write(`x-filler-${i}: ${'y'.repeat(1000)}\r\n`);
    });
    await expect(httpGet(new URL(site.url), options())).rejects.toMatchObject({ code: 'ERR_HEAD_TOO_LARGE' });
  });

  it('ends at its deadline, while waiting for the head or for the body, and not before', async () => {
    const stalled = await rawServer(() => {});
    const started = performance.now();
    await expect(httpGet(new URL(stalled.url), options(200))).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);

    const halfBody = await rawServer((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf'),
    );
    const answer = await httpGet(new URL(halfBody.url), options(200));
    await expect(answer.readBody(100)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it("passes on the socket's own errors with Node's codes", async () => {
    const gone = await rawServer(() => {});
    await new Promise((resolve) => servers.pop()?.close(resolve));
    await expect(httpGet(new URL(gone.url), options())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(httpGet(new URL('http://no-such-host.invalid/'), options())).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/),
    });
  });

  it('connects to an IPv6 literal', async () => {
    const site = await rawServer(
      (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nv6'),
      '::1',
    );
    const answer = await httpGet(new URL(`${site.url}/`), options());
    expect(site.requests[0]).toContain(`host: [::1]:${site.port}\r\n`);
    expect((await answer.readBody(100)).toString()).toBe('v6');
  });
});
