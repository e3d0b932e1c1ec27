import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildEarlyScript, earlyScript } from './early-script.ts';
import { takeEarly } from './src/lib/early-requests.ts';

const happyDOM = (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM;

describe('the early script', () => {
  afterEach(() => {
    happyDOM.setURL('http://localhost:3000/app/');
    vi.restoreAllMocks();
  });

  it('is one small classic script, and asks for the page’s first data that the app then takes', async () => {
    const code = await buildEarlyScript();
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
    expect(code.length).toBeLessThan(6 * 1024);

    Cookies.set('token', 't0k3n', { path: '/' });
    happyDOM.setURL('http://localhost:3000/app/monitor?monitorId=m1');
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response(JSON.stringify({ data: 'early' }), { status: 200 }));
    new Function(code)();
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      '/monitor-bff/user-info',
      '/monitor-bff/monitor-info?monitorId=m1',
    ]);
    // The app's own copy of the early requests takes what the script asked for.
    expect(await takeEarly('/monitor-bff/monitor-info', { monitorId: 'm1' })).toEqual({ data: 'early' });
  });

  it('asks for nothing without a session, or on a public page', async () => {
    const code = await buildEarlyScript();
    const fetch = vi.spyOn(globalThis, 'fetch');
    happyDOM.setURL('http://localhost:3000/app/monitor');
    new Function(code)();
    Cookies.set('token', 't0k3n', { path: '/' });
    happyDOM.setURL('http://localhost:3000/app/login');
    new Function(code)();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('runs from index.html ahead of the entry, without holding the page', async () => {
    const plugin = earlyScript();
    (plugin.configResolved as (config: { base: string }) => void)({ base: '/app/' });
    await (plugin.buildStart as () => Promise<void>)();
    const hook = plugin.transformIndexHtml as { handler: () => unknown };
    expect(hook.handler()).toEqual([
      {
        tag: 'script',
        attrs: { defer: true, src: expect.stringMatching(/^\/app\/assets\/early-[\w-]{8}\.js$/) },
        injectTo: 'head-prepend',
      },
    ]);
  });
});
