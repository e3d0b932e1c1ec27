import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.ts';
import type * as EarlyRequests from './early-requests.ts';
import { peekEarly, requestEarly } from './early-requests.ts';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The client's usual way to the server, answering `{ data: 'asked again' }` and counting the calls. */
function client() {
  const askAgain = vi.fn<typeof fetch>(async () => answer(200, { data: 'asked again' }));
  return { api: createApiClient({ fetch: askAgain, navigate: () => {}, showError: () => {} }), askAgain };
}

/** A second instance of this module, as another bundle holds it. */
async function importAnotherCopy(): Promise<typeof EarlyRequests> {
  vi.resetModules();
  return import('./early-requests.ts');
}

describe('early requests', () => {
  beforeEach(() => Cookies.set('token', 't0k3n', { path: '/' }));
  afterEach(() => {
    Cookies.remove('token', { path: '/' });
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('asks with the session, and the client takes the answer once instead of asking again', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(200, { data: 'early' }));
    requestEarly('/monitor-bff/monitor', { pageSize: 20, page: 2 });
    expect(fetch).toHaveBeenCalledWith('/monitor-bff/monitor?page=2&pageSize=20', {
      headers: { Authorization: 't0k3n', Accept: 'application/json' },
      credentials: 'same-origin',
    });
    const { api, askAgain } = client();
    const params = { page: 2, pageSize: 20 };
    expect(await api.get('/monitor-bff/monitor', { params })).toMatchObject({ ok: true, data: 'early' });
    expect(askAgain).not.toHaveBeenCalled();
    expect(await api.get('/monitor-bff/monitor', { params })).toMatchObject({
      ok: true,
      data: 'asked again',
    });
    expect(askAgain).toHaveBeenCalledTimes(1);
  });

  it('leaves a failed, stale or different early answer alone: the client asks as usual', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const { api, askAgain } = client();

    fetch.mockResolvedValueOnce(answer(401, { message: 'Sign in again.' }));
    requestEarly('/monitor-bff/user-info');
    expect(await api.get('/monitor-bff/user-info')).toMatchObject({ data: 'asked again' });

    fetch.mockRejectedValueOnce(new TypeError('offline'));
    requestEarly('/monitor-bff/user-info');
    expect(await api.get('/monitor-bff/user-info')).toMatchObject({ data: 'asked again' });

    fetch.mockResolvedValueOnce(answer(200, { data: 'early' }));
    requestEarly('/monitor-bff/monitor-info', { monitorId: 'a' });
    expect(await api.get('/monitor-bff/monitor-info', { params: { monitorId: 'b' } })).toMatchObject({
      data: 'asked again',
    });

    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    fetch.mockResolvedValueOnce(answer(200, { data: 'early' }));
    requestEarly('/monitor-bff/monitor-summary');
    vi.setSystemTime(Date.now() + 11_000);
    expect(await api.get('/monitor-bff/monitor-summary')).toMatchObject({ data: 'asked again' });
    expect(askAgain).toHaveBeenCalledTimes(4);
  });

  it('gives a first render the answer once it has come, once; before that, and when it failed, nothing', async () => {
    let answerNow: (response: Response) => void = () => {};
    vi.spyOn(globalThis, 'fetch')
      .mockReturnValueOnce(new Promise<Response>((resolve) => (answerNow = resolve)))
      .mockResolvedValueOnce(answer(500, { message: 'down' }));
    const { api, askAgain } = client();
    requestEarly('/monitor-bff/monitor-info', { monitorId: 'a' });
    expect(peekEarly('/monitor-bff/monitor-info', { monitorId: 'a' })).toBeUndefined();
    answerNow(answer(200, { data: { name: 'Storefront' } }));
    await vi.waitFor(() =>
      expect(api.peek('/monitor-bff/monitor-info', { monitorId: 'a' })).toEqual({ name: 'Storefront' }),
    );
    expect(api.peek('/monitor-bff/monitor-info', { monitorId: 'a' })).toBeUndefined();
    expect(await api.get('/monitor-bff/monitor-info', { params: { monitorId: 'a' } })).toMatchObject({
      data: 'asked again',
    });

    requestEarly('/monitor-bff/user-info');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(api.peek('/monitor-bff/user-info')).toBeUndefined();
    expect(await api.get('/monitor-bff/user-info')).toMatchObject({ data: 'asked again' });
    expect(askAgain).toHaveBeenCalledTimes(2);
  });

  it('asks once for a GET already asked for and not yet taken, as when the early script asked before the entry ran', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => answer(200, { data: 'early' }));
    // The early script runs its own copy of this module (src/early.ts, built on its own).
    const earlyScript = await importAnotherCopy();
    earlyScript.requestEarly('/monitor-bff/monitor-info', { monitorId: 'a' });
    requestEarly('/monitor-bff/monitor-info', { monitorId: 'a' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const { api, askAgain } = client();
    expect(await api.get('/monitor-bff/monitor-info', { params: { monitorId: 'a' } })).toMatchObject({
      data: 'early',
    });
    expect(askAgain).not.toHaveBeenCalled();
    // Taken, it is asked for again when asked early again (another first load in the same page's life).
    requestEarly('/monitor-bff/monitor-info', { monitorId: 'a' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(await api.get('/monitor-bff/monitor-info', { params: { monitorId: 'a' } })).toMatchObject({
      data: 'early',
    });
  });

  it('asks nothing without a session', () => {
    Cookies.remove('token', { path: '/' });
    const fetch = vi.spyOn(globalThis, 'fetch');
    requestEarly('/monitor-bff/user-info');
    expect(fetch).not.toHaveBeenCalled();
  });
});
