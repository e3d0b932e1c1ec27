import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failed, ok } from '../../../test/monitor-fixtures.ts';
import { getOAuthUri } from '../api/get-oauth-uri.ts';
import { readOAuthReturn } from './oauth-return.ts';
import { startConnect } from './start-connect.ts';

vi.mock('../api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));

const authorize = ok({
  url: 'https://hoodies.myshopify.com/admin/oauth/authorize?client_id=x',
  provider: 'shopify' as const,
  account: 'hoodies.myshopify.com',
  expiresAt: '2026-03-10T11:10:00Z',
});

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.mocked(getOAuthUri).mockReset();
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
});
afterEach(() => assign.mockRestore());

describe('startConnect()', () => {
  it("saves where to come back, then leaves for the provider's page", async () => {
    vi.mocked(getOAuthUri).mockResolvedValue(authorize);
    void startConnect({
      service: 'shopify',
      shop: 'hoodies',
      monitorId: 'm1',
      returnTo: '/monitor?monitorId=m1',
    });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(authorize.data.url));
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'shopify', shop: 'hoodies', monitorId: 'm1' });
    expect(readOAuthReturn()).toMatchObject({
      returnTo: '/monitor?monitorId=m1',
      provider: 'shopify',
      account: 'hoodies.myshopify.com',
    });
  });

  it('connects a Google account, whose account is known only after signing in, remembering the provider', async () => {
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({
        url: 'https://accounts.google.com/o/oauth2/v2/auth?state=bind-1',
        provider: 'google' as const,
        account: null,
        expiresAt: '2026-03-10T11:10:00Z',
      }),
    );
    void startConnect({ service: 'google_ads', returnTo: '/monitor_create' });
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=bind-1'),
    );
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'google_ads' });
    const saved = readOAuthReturn();
    expect(saved).toMatchObject({ returnTo: '/monitor_create', provider: 'google' });
    expect(saved).not.toHaveProperty('account');
  });

  it("answers the server's message and saves nothing when there is no authorize URL", async () => {
    vi.mocked(getOAuthUri).mockResolvedValue(failed(400, 'No Shopify shop answers at nope.example.'));
    expect(
      await startConnect({ service: 'shopify', shop: 'nope.example', returnTo: '/monitor_create' }),
    ).toBe('No Shopify shop answers at nope.example.');
    expect(assign).not.toHaveBeenCalled();
    expect(readOAuthReturn()).toBeNull();
  });

  it('settles when the page comes back from the back-forward cache, so buttons work again', async () => {
    vi.mocked(getOAuthUri).mockResolvedValue(authorize);
    const leaving = startConnect({
      service: 'shopify',
      returnTo: '/settings',
      shop: 'hoodies.myshopify.com',
    });
    await vi.waitFor(() => expect(assign).toHaveBeenCalled());
    const event = new Event('pageshow') as PageTransitionEvent;
    Object.defineProperty(event, 'persisted', { value: true });
    window.dispatchEvent(event);
    expect(await leaving).toBe('');
  });
});
