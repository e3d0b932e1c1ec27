import { describe, expect, it } from 'vitest';
import { aConnection } from '../../../test/monitor-fixtures.ts';
import { afterBinding, isBindingReturn, pendingBindingRedirect } from './bind-return.ts';

const held = {
  status: 'held' as const,
  key: 'held-key-0123456789',
  account: 'hoodies.myshopify.com',
  expiresAt: '',
};
const redirect = encodeURIComponent(JSON.stringify({ auth: 'false', key: held.key }));

describe('a return to /oauth', () => {
  it('is a binding when Shopify signed it (shop and hmac), else a sign-in', () => {
    expect(
      isBindingReturn({ code: 'c', state: 's', shop: 'h.myshopify.com', hmac: 'x', timestamp: '1' }),
    ).toBe(true);
    expect(isBindingReturn({ code: 'c', state: 's' })).toBe(false);
    expect(isBindingReturn({ code: 'c', state: 's', shop: 'h.myshopify.com' })).toBe(false);
  });

  it('is a binding for Google and Meta when the state carries the binding prefix, even when cancelled', () => {
    expect(
      isBindingReturn({ code: 'c', state: 'bind-9f3a', scope: 'https://www.googleapis.com/auth/adwords' }),
    ).toBe(true);
    expect(isBindingReturn({ code: 'c', state: 'bind-77aa' })).toBe(true);
    expect(isBindingReturn({ error: 'access_denied', state: 'bind-77aa' })).toBe(true);
    // The Google sign-in's state has no prefix, wherever the word appears.
    expect(isBindingReturn({ code: 'c', state: 'x-bind-1' })).toBe(false);
    expect(isBindingReturn({ code: 'c' })).toBe(false);
  });

  it('goes back where Connect was pressed, else to the reconnected monitor, else to a new monitor', () => {
    const bound = { status: 'bound' as const, connection: aConnection(), monitorId: null };
    expect(afterBinding(bound, { signedIn: true, returnTo: '/monitor_edit?monitorId=m1' })).toEqual({
      status: 'bound',
      to: '/monitor_edit?monitorId=m1',
      connection: aConnection(),
    });
    expect(afterBinding({ ...bound, monitorId: 'm2' }, { signedIn: true, returnTo: undefined }).to).toBe(
      '/monitor?monitorId=m2',
    );
    expect(afterBinding(bound, { signedIn: true, returnTo: undefined }).to).toBe('/monitor_create');
  });

  it('takes a held install to a new monitor when signed in, else to sign-in, carrying the key', () => {
    expect(pendingBindingRedirect(held.key)).toBe(redirect);
    expect(afterBinding(held, { signedIn: true, returnTo: undefined })).toEqual({
      status: 'held',
      to: `/monitor_create?redirect=${redirect}`,
    });
    expect(afterBinding(held, { signedIn: false, returnTo: '/monitor_create' }).to).toBe(
      `/login?redirect=${redirect}`,
    );
  });
});
