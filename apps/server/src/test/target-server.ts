import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** What the target answers next; tests change it between checks. */
export interface TargetBehaviour {
  status: number;
  body: string;
  delayMs: number;
  headers?: Record<string, string>;
}

export interface TargetServer {
  url: string;
  behaviour: TargetBehaviour;
  /** Requests received, per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const HEALTHY: TargetBehaviour = { status: 200, body: '<h1>Welcome to the shop</h1>', delayMs: 0 };

/**
 * A local website to watch: HTTP, or HTTPS with the given certificate. Each path is its own "site", so one
 * server can stand behind many monitors; `behaviour` applies to all of them.
 */
export async function startTargetServer(tls?: { key: string; cert: string }): Promise<TargetServer> {
  const hits = new Map<string, number>();
  const target = { behaviour: { ...HEALTHY } };
  const handler: http.RequestListener = (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const { status, body, delayMs, headers } = target.behaviour;
    const timer = setTimeout(() => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(body);
    }, delayMs);
    response.on('close', () => clearTimeout(timer));
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    hits,
    get behaviour() {
      return target.behaviour;
    },
    set behaviour(next) {
      target.behaviour = next;
    },
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { HEALTHY };

/**
 * A self-signed certificate for 127.0.0.1 valid for `days`, made now with the openssl command line (Node
 * cannot make certificates), so its expiry is always relative to today.
 */
export async function selfSignedCertificate(days: number): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-cert-'));
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      String(days),
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    return {
      key: await readFile(join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
