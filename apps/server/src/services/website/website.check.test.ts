import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { websiteConditions, type WebsiteConditions } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../lib/clock.ts';
import {
  HEALTHY,
  selfSignedCertificate,
  startTargetServer,
  type TargetServer,
} from '../../test/target-server.ts';
import type { CheckOutcome } from '../../checks/checker.ts';
import { CHECK_DEADLINE_MS } from '../../engine/check-engine.ts';
import { createWebsiteChecker, DEFAULT_TIMEOUT_MS } from './website.check.ts';

const OFF: WebsiteConditions = {
  http_status: { enabled: false },
  timeout: { enabled: false, timeoutMs: 10_000 },
  keyword: { enabled: false, keyword: '', mode: 'missing' },
  slow_response: { enabled: false, thresholdMs: 2000 },
  tls_expiry: { enabled: false, days: 14 },
  password_page: { enabled: false },
};

function conditions(patch: Partial<WebsiteConditions>): WebsiteConditions {
  return { ...OFF, ...patch };
}

const verdict = (outcome: CheckOutcome, key: string) => outcome.conditions.find((c) => c.key === key);

describe('website checker', () => {
  let site: TargetServer;
  const checker = createWebsiteChecker();
  const check = (url: string, c: WebsiteConditions) =>
    checker.check({
      target: { url },
      conditions: c,
      now: new Date(),
      slotAt: new Date(),
    });

  beforeAll(async () => {
    site = await startTargetServer();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('passes a site that answers 200, with its response time', async () => {
    site.behaviour = { ...HEALTHY };
    const outcome = await check(`${site.url}/up`, conditions({ http_status: { enabled: true } }));
    expect(outcome.statusCode).toBe(200);
    expect(outcome.responseMs).toBeGreaterThanOrEqual(0);
    expect(outcome.conditions).toEqual([
      { key: 'http_status', ok: true, summary: `HTTP 200 from ${site.url}/up` },
    ]);
  });

  it('fails a 503 with a summary naming the status and the address', async () => {
    site.behaviour = { ...HEALTHY, status: 503, body: 'down for maintenance' };
    const outcome = await check(site.url, conditions({ http_status: { enabled: true } }));
    expect(verdict(outcome, 'http_status')).toEqual({
      key: 'http_status',
      ok: false,
      summary: `HTTP 503 from ${site.url}`,
    });
  });

  it('follows redirects and judges the final answer', async () => {
    const redirecting = await startTargetServer();
    redirecting.behaviour = { ...HEALTHY, status: 302, headers: { location: `${site.url}/password` } };
    site.behaviour = { ...HEALTHY };
    try {
      const outcome = await check(
        redirecting.url,
        conditions({ http_status: { enabled: true }, password_page: { enabled: true } }),
      );
      expect(verdict(outcome, 'http_status')?.ok).toBe(true);
      expect(verdict(outcome, 'password_page')).toEqual({
        key: 'password_page',
        ok: false,
        summary: `Password page shown at ${site.url}/password`,
      });
    } finally {
      await redirecting.close();
    }
  });

  it('sees a Shopify-style password form in the page', async () => {
    site.behaviour = {
      ...HEALTHY,
      body: '<form method="post" action="/password" id="login_form"><input type="password"></form>',
    };
    const outcome = await check(site.url, conditions({ password_page: { enabled: true } }));
    expect(verdict(outcome, 'password_page')?.ok).toBe(false);
  });

  it('fails when the keyword is missing, or present when it must not be', async () => {
    site.behaviour = { ...HEALTHY, body: '<button>Sold out</button>' };
    const missing = await check(
      site.url,
      conditions({ keyword: { enabled: true, keyword: 'Add to cart', mode: 'missing' } }),
    );
    expect(verdict(missing, 'keyword')).toEqual({
      key: 'keyword',
      ok: false,
      summary: `Keyword "Add to cart" not found on ${site.url}`,
    });
    const present = await check(
      site.url,
      conditions({ keyword: { enabled: true, keyword: 'sold out', mode: 'present' } }),
    );
    expect(verdict(present, 'keyword')).toEqual({
      key: 'keyword',
      ok: false,
      summary: `Keyword "sold out" found on ${site.url}`,
    });
    site.behaviour = { ...HEALTHY, body: '<button>Add to cart</button>' };
    const found = await check(
      site.url,
      conditions({ keyword: { enabled: true, keyword: 'Add to cart', mode: 'missing' } }),
    );
    expect(verdict(found, 'keyword')?.ok).toBe(true);
  });

  it('fails a slow answer over the threshold, and times out one slower than the timeout', async () => {
    site.behaviour = { ...HEALTHY, delayMs: 300 };
    const slow = await check(
      site.url,
      conditions({ slow_response: { enabled: true, thresholdMs: 100 }, http_status: { enabled: true } }),
    );
    expect(verdict(slow, 'slow_response')?.ok).toBe(false);
    expect(verdict(slow, 'slow_response')?.summary).toMatch(/answered in \d+ ms \(limit 100 ms\)/);
    expect(verdict(slow, 'http_status')?.ok).toBe(true);

    // The answer would come after 10 s; the check gives up at its 1 s timeout. The bound leaves room for a
    // machine busy with other suites (a 2-core CI runner once took 3 s to get round to it).
    site.behaviour = { ...HEALTHY, delayMs: 10_000 };
    const started = Date.now();
    const timedOut = await check(
      site.url,
      conditions({
        timeout: { enabled: true, timeoutMs: 1000 },
        http_status: { enabled: true },
        keyword: { enabled: true, keyword: 'shop', mode: 'missing' },
      }),
    );
    expect(Date.now() - started).toBeLessThan(6000);
    expect(timedOut.responseMs).toBeNull();
    expect(verdict(timedOut, 'timeout')).toEqual({
      key: 'timeout',
      ok: false,
      summary: `No answer from ${site.url} within 1 s`,
    });
    // The failure is counted once: the other conditions are not judged without an answer.
    expect(verdict(timedOut, 'http_status')?.ok).toBeNull();
    expect(verdict(timedOut, 'keyword')?.ok).toBeNull();
  });

  it('gives up on a page that stops halfway, at the timeout', async () => {
    // Headers and the start of a page, then nothing more.
    const stalled = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<h1>Welcome to the');
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/`;
    const reading = conditions({
      timeout: { enabled: true, timeoutMs: 1000 },
      keyword: { enabled: true, keyword: 'shop', mode: 'missing' },
    });
    try {
      const started = Date.now();
      const timedOut = await check(url, reading);
      expect(Date.now() - started).toBeLessThan(6000);
      expect(verdict(timedOut, 'timeout')).toEqual({
        key: 'timeout',
        ok: false,
        summary: `No answer from http://127.0.0.1:${new URL(url).port} within 1 s`,
      });
      expect(verdict(timedOut, 'keyword')?.ok).toBeNull();
    } finally {
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it("gives up by itself within the engine's deadline, whatever the monitor's timeout", () => {
    const longest = conditions({ timeout: { enabled: true, timeoutMs: CHECK_DEADLINE_MS } });
    expect(websiteConditions.safeParse(longest).success).toBe(true);
    expect(
      websiteConditions.safeParse(
        conditions({ timeout: { enabled: true, timeoutMs: CHECK_DEADLINE_MS + 1 } }),
      ).success,
    ).toBe(false);
    expect(checker.timeoutMs?.(longest)).toBe(CHECK_DEADLINE_MS);
    expect(checker.timeoutMs?.(OFF)).toBe(DEFAULT_TIMEOUT_MS);
  });

  it('reads the keyword from a page sent in chunks, across a chunk boundary', async () => {
    const chunked = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<button>Add to ');
      setTimeout(() => response.end('cart</button>'), 5);
    });
    await new Promise<void>((resolve) => chunked.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(chunked.address() as AddressInfo).port}`;
    try {
      const outcome = await check(
        url,
        conditions({ keyword: { enabled: true, keyword: 'add to cart', mode: 'missing' } }),
      );
      expect(verdict(outcome, 'keyword')).toEqual({
        key: 'keyword',
        ok: true,
        summary: `Keyword "add to cart" found on ${url}`,
      });
    } finally {
      await new Promise((resolve) => chunked.close(resolve));
    }
  });

  it('fails HTTP status with what came when the answer is not HTTP', async () => {
    // It reads what comes (so it sees the checker close) and greets in its own protocol.
    const ssh = net.createServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(ssh.address() as AddressInfo).port}`;
    try {
      const outcome = await check(url, conditions({ http_status: { enabled: true } }));
      expect(verdict(outcome, 'http_status')).toEqual({
        key: 'http_status',
        ok: false,
        summary: `${url} gave an answer that could not be read. The answer is not HTTP/1.1: the answer starts "SSH-2.0-OpenSSH_9.6"`,
      });
    } finally {
      await new Promise((resolve) => ssh.close(resolve));
    }
  });

  it('fails HTTP status when nothing listens', async () => {
    const gone = await startTargetServer();
    const url = gone.url;
    await gone.close();
    const outcome = await check(url, conditions({ http_status: { enabled: true } }));
    expect(verdict(outcome, 'http_status')).toEqual({
      key: 'http_status',
      ok: false,
      summary: `${url} refused the connection`,
    });
  });
});

describe('website checker on TLS', () => {
  let expiring: TargetServer;
  let healthy: TargetServer;
  const checker = createWebsiteChecker({ rejectUnauthorized: false });
  const tlsConditions = conditions({
    tls_expiry: { enabled: true, days: 14 },
    http_status: { enabled: true },
  });
  const check = (url: string) =>
    checker.check({
      target: { url },
      conditions: tlsConditions,
      now: new Date(),
      slotAt: new Date(),
    });

  beforeAll(async () => {
    [expiring, healthy] = await Promise.all([
      selfSignedCertificate(3).then(startTargetServer),
      selfSignedCertificate(365).then(startTargetServer),
    ]);
  });
  afterAll(async () => {
    await Promise.all([expiring?.close(), healthy?.close()]);
  });

  it('reads the certificate on the real TLS connection and fails one expiring within the days set', async () => {
    const outcome = await check(expiring.url);
    const tls = verdict(outcome, 'tls_expiry');
    expect(tls?.ok).toBe(false);
    const date = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);
    expect(tls?.summary).toMatch(new RegExp(`^Certificate expires in [23] days \\((${date}|.{10})\\)$`));
    expect(verdict(outcome, 'http_status')?.ok).toBe(true);
  });

  it('passes a certificate valid for a year', async () => {
    const tls = verdict(await check(healthy.url), 'tls_expiry');
    expect(tls?.ok).toBe(true);
    expect(tls?.summary).toMatch(/^Certificate expires in 36[45] days/);
  });

  it('refuses a self-signed certificate unless told to accept it', async () => {
    const strict = createWebsiteChecker();
    const outcome = await strict.check({
      target: { url: healthy.url },
      conditions: tlsConditions,
      now: new Date(),
      slotAt: new Date(),
    });
    expect(verdict(outcome, 'http_status')).toMatchObject({
      ok: false,
      summary: expect.stringContaining('is not trusted'),
    });
    expect(verdict(outcome, 'tls_expiry')?.ok).toBeNull();
  });
});
