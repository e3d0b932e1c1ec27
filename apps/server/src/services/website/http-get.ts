import net from 'node:net';
import tls from 'node:tls';

/**
 * One HTTP/1.1 GET on a fresh connection, written on `net`/`tls` sockets for the website checker.
 *
 * `http.request` builds a request and a response stream, an agent entry and their events for every check, and
 * on this machine that machinery cost the worker about as much CPU as the connection itself (bench/README.md,
 * "the floor under a check"). A check needs less: the status, the headers, the server's certificate and, for the
 * keyword and password-page conditions, the start of the body. So this sends a fixed request, reads the answer's
 * head as it arrives and, only when asked, the body through its framing (RFC 9112: a length, chunks, or until the
 * connection closes). The connection is never reused: each check sees DNS, connect and TLS afresh.
 *
 * Errors keep Node's codes where Node would give one (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`, …, and
 * `ECONNRESET` for a connection closed before the answer is whole); an answer that is not HTTP/1.x fails with
 * `ERR_NOT_HTTP`, and a head over {@link MAX_HEAD_BYTES} with `ERR_HEAD_TOO_LARGE`.
 */

/** The most the status line and headers may take: four times Node's default, so a page browsers load passes. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line longer than this is not a chunk size. */
const MAX_CHUNK_LINE = 1024;
const LF = 0x0a;
const CR = 0x0d;

export interface HttpGetOptions {
  /**
   * When the exchange (connecting, the head or the body) is given up, on `performance.now()`'s clock: it then fails
   * with `ETIMEDOUT`. A timer, not an `AbortSignal`: making one and listening to it costs more than the rest of the
   * client's own code for a check.
   */
  endsAt: number;
  rejectUnauthorized: boolean;
  /** Header lines sent after Host, each `name: value` (no line breaks). */
  headers: readonly string[];
}

export interface HttpAnswer {
  statusCode: number;
  /** Headers by lower-case name; a repeated header keeps its first value. */
  headers: ReadonlyMap<string, string>;
  /** When the connection is TLS: the end of the server certificate's validity, when it states one. */
  certificateValidTo: Date | null;
  /** The body decoded from its framing, at most `maxBytes` of it; the connection closes afterwards. */
  readBody(maxBytes: number): Promise<Buffer>;
  /** Closes the connection without reading the body. */
  discard(): void;
}

export class HttpGetError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    new Exchange(url, options, resolve, reject);
  });
}

type Framing =
  | { kind: 'none' }
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'data-end'; left: number }
  | { kind: 'close' };

interface BodyRead {
  chunks: Buffer[];
  size: number;
  max: number;
  resolve: (body: Buffer) => void;
  reject: (error: Error) => void;
}

class Exchange implements HttpAnswer {
  private readonly socket: net.Socket;
  /** Body bytes not yet read, or a partial chunk-size line. */
  private pending: Buffer | null = null;
  /** A head split over several reads: its parts, their size, and the last bytes received (see `collectHead`). */
  private headParts: Buffer[] = [];
  private headSize = 0;
  private headTail: Buffer | null = null;
  private answered = false;
  private finished = false;
  private failure: Error | null = null;
  private framing: Framing = { kind: 'none' };
  private body: BodyRead | null = null;
  private readonly timer: NodeJS.Timeout;
  statusCode = 0;
  headers = new Map<string, string>();
  certificateValidTo: Date | null = null;

  constructor(
    url: URL,
    options: HttpGetOptions,
    private readonly answer: (answer: HttpAnswer) => void,
    private readonly refuse: (error: Error) => void,
  ) {
    const secure = url.protocol === 'https:';
    // URL keeps an IPv6 literal's brackets in `hostname`; sockets want the bare address.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (secure ? 443 : 80);
    this.socket = secure
      ? tls.connect({
          host,
          port,
          servername: net.isIP(host) ? undefined : host,
          rejectUnauthorized: options.rejectUnauthorized,
        })
      : net.connect({ host, port });
    // Sockets hold writes until they connect (and, on TLS, until the handshake is done).
    this.socket.write(requestHead(url, options.headers), 'latin1');
    this.socket.on('data', this.onData);
    this.socket.on('end', this.onEnd);
    this.socket.on('error', this.fail);
    this.timer = setTimeout(this.onTimeout, Math.max(0, options.endsAt - performance.now()));
  }

  readBody(maxBytes: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.body = { chunks: [], size: 0, max: maxBytes, resolve, reject };
      const pending = this.pending;
      this.pending = null;
      if (this.framing.kind === 'none') return this.finishBody();
      if (pending) this.take(pending);
      if (!this.finished) this.socket.resume();
    });
  }

  discard(): void {
    this.close();
  }

  private readonly onTimeout = () => this.fail(new HttpGetError('ETIMEDOUT', 'No answer in time'));

  private readonly onData = (chunk: Buffer) => {
    if (!this.answered) return this.collectHead(chunk);
    // Bytes left over from the last read (a partial chunk-size line) come first.
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (this.body) this.take(data);
    else this.pending = data;
  };

  /**
   * A head usually arrives in one read. When it is split, its parts are kept apart until the blank line that ends
   * it arrives, looked for across the seam between the last bytes received and the new part, so a head trickled a
   * byte at a time is joined once, not once per byte.
   */
  private collectHead(chunk: Buffer) {
    const seam = this.headTail ? Buffer.concat([this.headTail, chunk]) : chunk;
    this.headParts.push(chunk);
    this.headSize += chunk.length;
    if (headEnd(seam, 0) === -1) {
      if (this.headSize > MAX_HEAD_BYTES) this.fail(headTooLarge());
      else this.headTail = Buffer.from(seam.subarray(-3));
      return;
    }
    const buffer = this.headParts.length === 1 ? chunk : Buffer.concat(this.headParts, this.headSize);
    this.headParts = [];
    this.headSize = 0;
    this.headTail = null;
    this.readHeads(buffer);
  }

  private readonly onEnd = () => {
    if (!this.answered) {
      this.fail(new HttpGetError('ECONNRESET', 'The server closed the connection before answering'));
    } else if (this.body && this.framing.kind === 'close') {
      this.finishBody();
    } else if (this.framing.kind !== 'none' && this.framing.kind !== 'close') {
      this.fail(
        new HttpGetError('ECONNRESET', 'The server closed the connection before the end of the page'),
      );
    }
  };

  private readonly fail = (error: Error) => {
    if (this.finished) return;
    this.failure = error;
    this.close();
    if (!this.answered) this.refuse(error);
    else this.body?.reject(error);
  };

  private close() {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    this.socket.destroy();
  }

  /** Reads heads from the buffer: informational ones (100, 103) are skipped, the final one answers. */
  private readHeads(buffer: Buffer) {
    let start = 0;
    for (;;) {
      const end = headEnd(buffer, start);
      if (end === -1) {
        // The start of the next head, after an informational one: the rest of it is collected as it comes.
        const rest = buffer.subarray(start);
        if (rest.length > MAX_HEAD_BYTES) return this.fail(headTooLarge());
        this.headParts = [rest];
        this.headSize = rest.length;
        this.headTail = Buffer.from(rest.subarray(-3));
        return;
      }
      if (end - start > MAX_HEAD_BYTES) return this.fail(headTooLarge());
      const head = parseHead(buffer.toString('latin1', start, end));
      if (head instanceof HttpGetError) return this.fail(head);
      start = end;
      if (head.statusCode >= 100 && head.statusCode < 200 && head.statusCode !== 101) continue;
      const framing = framingOf(head.statusCode, head.headers);
      if (framing instanceof HttpGetError) return this.fail(framing);
      this.statusCode = head.statusCode;
      this.headers = head.headers;
      this.framing = framing;
      this.certificateValidTo = certificateValidTo(this.socket);
      if (start < buffer.length) this.pending = buffer.subarray(start);
      this.answered = true;
      // Nothing more is read until the caller asks for the body (or discards it).
      this.socket.pause();
      this.answer(this);
      return;
    }
  }

  /** Feeds body bytes through the framing into the body being read. */
  private take(chunk: Buffer) {
    const framing = this.framing;
    let at = 0;
    while (at < chunk.length && !this.finished) {
      if (framing.kind === 'close') {
        this.keep(chunk.subarray(at));
        return;
      }
      if (framing.kind === 'none') return;
      // A stated number of bytes: the whole body's length, or one chunk's data.
      if (framing.kind === 'length' || framing.state === 'data') {
        const part = chunk.subarray(at, at + framing.left);
        framing.left -= part.length;
        at += part.length;
        this.keep(part);
        if (framing.left > 0) continue;
        if (framing.kind === 'length') this.finishBody();
        else framing.state = 'data-end';
        continue;
      }
      // A chunk-size line, or the line break that ends a chunk's data: both end at the next LF.
      const lf = chunk.indexOf(LF, at);
      if (lf === -1) {
        this.pending = chunk.subarray(at);
        if (this.pending.length > MAX_CHUNK_LINE) this.fail(notHttp('a chunk size line is too long'));
        return;
      }
      const line = chunk.toString('latin1', at, lf > at && chunk[lf - 1] === CR ? lf - 1 : lf);
      at = lf + 1;
      if (framing.state === 'data-end') {
        if (line !== '') return this.fail(notHttp('a chunk does not end where its size says'));
        framing.state = 'size';
        continue;
      }
      const size = chunkSize(line);
      if (size === null) return this.fail(notHttp(`"${line.slice(0, 40)}" is not a chunk size`));
      // The last chunk: its trailers, if any, say nothing a check reads.
      if (size === 0) return this.finishBody();
      framing.state = 'data';
      framing.left = size;
    }
  }

  /** Adds body bytes to the body being read, up to its limit. */
  private keep(part: Buffer) {
    const body = this.body;
    if (!body || part.length === 0) return;
    const room = body.max - body.size;
    const kept = part.length > room ? part.subarray(0, room) : part;
    body.chunks.push(kept);
    body.size += kept.length;
    if (body.size >= body.max) this.finishBody();
  }

  private finishBody() {
    const body = this.body;
    this.close();
    body?.resolve(Buffer.concat(body.chunks, body.size));
  }
}

function requestHead(url: URL, headers: readonly string[]): string {
  return `GET ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${headers.join('\r\n')}\r\nconnection: close\r\n\r\n`;
}

/** The offset just past the blank line that ends a head starting at `start`, or -1. Bare LFs are accepted. */
function headEnd(buffer: Buffer, start: number): number {
  let lf = buffer.indexOf(LF, start);
  while (lf !== -1) {
    const next = lf + 1;
    if (buffer[next] === LF) return next + 1;
    if (buffer[next] === CR && buffer[next + 1] === LF) return next + 2;
    lf = buffer.indexOf(LF, next);
  }
  return -1;
}

const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?:[ \t][^\r\n]*)?\r?$/;

function parseHead(text: string): { statusCode: number; headers: Map<string, string> } | HttpGetError {
  const [first = '', ...lines] = text.split('\n');
  const status = STATUS_LINE.exec(first);
  if (!status) return notHttp(`the answer starts "${first.slice(0, 40).trim()}"`);
  const headers = new Map<string, string>();
  let contentLength: string | undefined;
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // An empty line, or an obsolete folded continuation (RFC 9112 §5.2), says nothing a check reads.
    if (line === '' || line[0] === ' ' || line[0] === '\t') continue;
    const colon = line.indexOf(':');
    if (colon <= 0 || /\s/.test(line.slice(0, colon)))
      return notHttp(`"${line.slice(0, 40)}" is not a header`);
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      // Repeated lengths that disagree make the body's end unknowable (RFC 9112 §6.3).
      if (contentLength !== undefined && contentLength !== value)
        return notHttp('the answer states two lengths');
      contentLength = value;
    }
    if (!headers.has(name)) headers.set(name, value);
  }
  return { statusCode: Number(status[1]), headers };
}

/** How the body's end is found (RFC 9112 §6.3), for the answer to a GET. */
function framingOf(statusCode: number, headers: ReadonlyMap<string, string>): Framing | HttpGetError {
  if (statusCode < 200 || statusCode === 204 || statusCode === 304) return { kind: 'none' };
  const transfer = headers.get('transfer-encoding');
  if (transfer !== undefined) {
    const codings = transfer.toLowerCase().split(',');
    return codings.at(-1)?.trim() === 'chunked'
      ? { kind: 'chunked', state: 'size', left: 0 }
      : { kind: 'close' };
  }
  const length = headers.get('content-length');
  if (length === undefined) return { kind: 'close' };
  const left = /^\d{1,15}$/.test(length) ? Number(length) : Number.NaN;
  if (Number.isNaN(left)) return notHttp(`"${length.slice(0, 20)}" is not a length`);
  return left === 0 ? { kind: 'none' } : { kind: 'length', left };
}

function chunkSize(line: string): number | null {
  const semicolon = line.indexOf(';');
  const digits = (semicolon === -1 ? line : line.slice(0, semicolon)).trim();
  if (!/^[0-9a-fA-F]{1,12}$/.test(digits)) return null;
  return parseInt(digits, 16);
}

function certificateValidTo(socket: net.Socket): Date | null {
  if (!(socket instanceof tls.TLSSocket)) return null;
  const validTo = socket.getPeerCertificate()?.valid_to;
  const date = validTo ? new Date(validTo) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

function headTooLarge(): HttpGetError {
  return new HttpGetError('ERR_HEAD_TOO_LARGE', `The answer's headers are over ${MAX_HEAD_BYTES / 1024} KiB`);
}

function notHttp(why: string): HttpGetError {
  return new HttpGetError('ERR_NOT_HTTP', `The answer is not HTTP/1.1: ${why}`);
}
