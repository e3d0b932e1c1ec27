import { expect } from 'vitest';
import type { ConnectedService } from '@vigil/contracts';
import type { TestUser } from '../modules/monitors/monitor-test-helpers.ts';
import { call, type TestApp } from './test-app.ts';

/**
 * The browser's part of connecting a Google or Facebook account, over HTTP: ouathuri, the sandbox's consent
 * page, its form posted with `answers` (who signs in, what they decide), back at /app/oauth. Resolves with
 * what ouathuri answered and the return's query, the params to bind.
 */
export async function consentInSandbox(
  t: TestApp,
  user: TestUser,
  service: ConnectedService,
  answers: Record<string, string>,
): Promise<{ authorizeUrl: URL; provider: string; params: Record<string, string> }> {
  const { status, body } = await call(t.app, 'GET', `/monitor-bff/monitor/ouathuri?service=${service}`, {
    token: user.token,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  const authorizeUrl = new URL(body.data.url);
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(name!, value!.replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
  }
  for (const [name, value] of Object.entries(answers)) form.set(name, value);
  const answer = await fetch(new URL(action, t.url), { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(back.pathname).toBe('/app/oauth');
  return {
    authorizeUrl,
    provider: body.data.provider as string,
    params: Object.fromEntries(back.searchParams) as Record<string, string>,
  };
}

/** Binds the account a consent came back with; resolves with the new connection's id. */
export async function bindAccount(
  t: TestApp,
  user: TestUser,
  params: Record<string, string>,
): Promise<string> {
  const { status, body } = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
    token: user.token,
    body: { params },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data.connection.connectionId as string;
}
