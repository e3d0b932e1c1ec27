import { describe, expect, it } from 'vitest';
import { aConnection } from '../../../test/monitor-fixtures.ts';
import {
  OAUTH_RETURN_KEY,
  OAUTH_RETURN_TTL_MS,
  clearOAuthReturn,
  isReturnTo,
  markConnected,
  readOAuthReturn,
  saveOAuthReturn,
} from './oauth-return.ts';

const NOW = 1_750_000_000_000;

describe('the saved return from connecting a shop', () => {
  it('keeps where to come back and the form values in sessionStorage', () => {
    saveOAuthReturn({ returnTo: '/monitor_edit?monitorId=m1', account: 'hoodies.myshopify.com' }, NOW);
    expect(JSON.parse(window.sessionStorage.getItem(OAUTH_RETURN_KEY)!)).toEqual({
      returnTo: '/monitor_edit?monitorId=m1',
      account: 'hoodies.myshopify.com',
      savedAt: NOW,
    });
    expect(readOAuthReturn(NOW + 1000)?.returnTo).toBe('/monitor_edit?monitorId=m1');
  });

  it('forgets a return older than its time to live, and anything unreadable', () => {
    saveOAuthReturn({ returnTo: '/monitor_create' }, NOW);
    expect(readOAuthReturn(NOW + OAUTH_RETURN_TTL_MS + 1)).toBeNull();
    window.sessionStorage.setItem(OAUTH_RETURN_KEY, '{not json');
    expect(readOAuthReturn(NOW)).toBeNull();
    window.sessionStorage.setItem(
      OAUTH_RETURN_KEY,
      JSON.stringify({ returnTo: 'https://evil.example', savedAt: NOW }),
    );
    expect(readOAuthReturn(NOW)).toBeNull();
  });

  it('records the connection made on the saved return, or on a new one', () => {
    saveOAuthReturn({ returnTo: '/monitor_create?redirect=x' }, NOW);
    markConnected(aConnection(), '/ignored', NOW);
    expect(readOAuthReturn(NOW)).toMatchObject({
      returnTo: '/monitor_create?redirect=x',
      connection: aConnection(),
    });
    clearOAuthReturn();
    markConnected(aConnection(), '/monitor_create', NOW);
    expect(readOAuthReturn(NOW)).toMatchObject({ returnTo: '/monitor_create', connection: aConnection() });
  });

  it('matches a page by path and the monitor edited', () => {
    const entry = { returnTo: '/monitor_edit?monitorId=m1', savedAt: NOW };
    expect(isReturnTo(entry, '/monitor_edit?monitorId=m1')).toBe(true);
    expect(isReturnTo(entry, '/monitor_edit?monitorId=m2')).toBe(false);
    expect(isReturnTo({ returnTo: '/monitor_create?redirect=a', savedAt: NOW }, '/monitor_create')).toBe(
      true,
    );
    expect(isReturnTo(entry, '/monitor_create')).toBe(false);
  });
});
