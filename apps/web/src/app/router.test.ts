import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StartupGate } from './root-layout.tsx';
import { PAGES, preloadRoute } from './router.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  Cookies.remove('token', { path: '/' });
});

function spyPreloads() {
  const pages = Object.fromEntries(
    Object.entries(PAGES).map(([name, page]) => [
      name,
      vi.spyOn(page, 'preload').mockImplementation(() => {}),
    ]),
  );
  const gate = vi.spyOn(StartupGate, 'preload').mockImplementation(() => {});
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
});
