import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StartupGate } from './root-layout.tsx';
import { PAGES, preloadRoute } from './router.tsx';
import { forgetEarlyRequests } from '../lib/early-requests.ts';
import { removeToken } from '../lib/session.ts';

afterEach(() => {
  vi.restoreAllMocks();
  Cookies.remove('token', { path: '/' });
});

function spyPreloads() {
  const pages = Object.fromEntries(
    Object.entries(PAGES).map(([name, page]) => [
      name,
      vi.spyOn(page, 'preload').mockResolvedValue(undefined),
    ]),
  );
  const gate = vi.spyOn(StartupGate, 'preload').mockResolvedValue(undefined);
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
  const started = () => [
    ...Object.entries(pages)
      .filter(([, spy]) => spy.mock.calls.length > 0)
      .map(([name]) => name),
    ...(gate.mock.calls.length ? ['startup-gate'] : []),
  ];
  return started;
}

describe('preloadRoute()', () => {
  it('fetches only the page of a public path', () => {
    const started = spyPreloads();
    preloadRoute('/app/login');
    expect(started()).toEqual(['login']);
  });

  it('fetches the startup gate with the page of a private path when there is a session', () => {
    Cookies.set('token', 't0k3n', { path: '/' });
    const started = spyPreloads();
    preloadRoute('/app/monitor');
    expect(started()).toEqual(['monitor', 'startup-gate']);
  });

  it('fetches the monitor list for /app/ and the not-found page for an unknown path', () => {
    Cookies.set('token', 't0k3n', { path: '/' });
    let started = spyPreloads();
    preloadRoute('/app/');
    expect(started()).toEqual(['monitor', 'startup-gate']);
    vi.restoreAllMocks();
    started = spyPreloads();
    preloadRoute('/app/nothing-here');
    expect(started()).toEqual(['not-found', 'startup-gate']);
  });

  it('fetches the login page for a private path without a session, where the gate will send the person', () => {
    const started = spyPreloads();
    preloadRoute('/app/alerts');
    expect(started()).toEqual(['login']);
  });

  it("asks for the startup gate's user and the monitor page's first data as it starts, with a session", () => {
    Cookies.set('token', 't0k3n', { path: '/' });
    spyPreloads();
    const asked = () => vi.mocked(fetch).mock.calls.map(([url]) => url);
    preloadRoute('/app/monitor', '?monitorId=m1');
    expect(asked()).toEqual(['/monitor-bff/user-info', '/monitor-bff/monitor-info?monitorId=m1']);
    vi.mocked(fetch).mockClear();
    forgetEarlyRequests();
    preloadRoute('/app/monitor', '?page=3');
    expect(asked()).toEqual(['/monitor-bff/user-info', '/monitor-bff/monitor?page=3&pageSize=20']);
    vi.mocked(fetch).mockClear();
    forgetEarlyRequests();
    preloadRoute('/app/alerts');
    expect(asked()).toEqual(['/monitor-bff/user-info']);
    vi.mocked(fetch).mockClear();
    removeToken();
    preloadRoute('/app/monitor');
    expect(asked()).toEqual([]);
  });
});
