import { describe, expect, it } from 'vitest';
import { accessOf, isShellOmitted, matchRoute, stripBase } from './route-match.ts';
import { ROUTES, type RouteEntry } from './route-table.ts';

describe('matchRoute', () => {
  const table: RouteEntry[] = [
    {
      path: '/',
      access: 'private',
      children: [
        { path: 'login', access: 'public' },
        {
          path: 'settings',
          access: 'private',
          children: [{ path: 'billing/history', access: 'private', page: 'settings' }],
        },
      ],
    },
    { path: '/standalone', access: 'public' },
  ];

  it('ignores the /app prefix', () => {
    expect(matchRoute(table, '/app/login')?.path).toBe('login');
    expect(matchRoute(table, '/login')?.path).toBe('login');
  });

  it('searches nested child routes, at any depth', () => {
    expect(matchRoute(table, '/app/settings')?.path).toBe('settings');
    expect(matchRoute(table, '/app/settings/billing/history')?.path).toBe('billing/history');
  });

  it("treats a route path of '/' as empty", () => {
    expect(matchRoute(table, '/app')?.path).toBe('/');
    expect(matchRoute(table, '/app/')?.path).toBe('/');
    expect(matchRoute(table, '/')?.path).toBe('/');
    expect(matchRoute(table, '/standalone')?.path).toBe('/standalone');
  });

  it('tolerates a trailing slash and letter case, like the router', () => {
    expect(matchRoute(table, '/app/login/')?.path).toBe('login');
    expect(matchRoute(table, '/app/LOGIN')?.path).toBe('login');
  });

  it('returns null for unmatched paths, including partial ones', () => {
    expect(matchRoute(table, '/app/nope')).toBeNull();
    expect(matchRoute(table, '/app/login/extra')).toBeNull();
    expect(matchRoute(table, '/app/settings/billing')).toBeNull();
    expect(matchRoute(table, '/application/login')).toBeNull();
  });
});

describe('the route table', () => {
  it('has the 13 routes of the spec with their access', () => {
    const expected: Record<string, 'public' | 'private'> = {
      '/login': 'public',
      '/register': 'public',
      '/oauth': 'public',
      '/': 'private',
      '/onboarding': 'private',
      '/monitor': 'private',
      '/monitor_create': 'private',
      '/monitor_edit': 'private',
      '/alerts': 'private',
      '/settings': 'private',
      '/pricing': 'private',
      '/payment-success': 'private',
      '/payment-error': 'private',
    };
    for (const [path, access] of Object.entries(expected)) {
      expect(matchRoute(ROUTES, `/app${path}`), path).not.toBeNull();
      expect(accessOf(`/app${path}`, ROUTES), path).toBe(access);
    }
    const count = (routes: RouteEntry[]): number =>
      routes.reduce((n, route) => n + 1 + count(route.children ?? []), 0);
    expect(count(ROUTES)).toBe(13);
  });

  it('makes unmatched routes private', () => {
    expect(accessOf('/app/whatever', ROUTES)).toBe('private');
  });
});

describe('stripBase', () => {
  it('only strips a whole /app segment', () => {
    expect(stripBase('/app/monitor')).toBe('/monitor');
    expect(stripBase('/app')).toBe('/');
    expect(stripBase('/apple')).toBe('/apple');
  });
});

describe('isShellOmitted', () => {
  it('omits the shell on /onboarding, /pricing and any path containing payment', () => {
    for (const path of [
      '/app/onboarding',
      '/app/pricing',
      '/app/pricing/',
      '/app/payment-success',
      '/app/payment-error',
      '/app/x/payment',
    ]) {
      expect(isShellOmitted(path), path).toBe(true);
    }
  });

  it('keeps it everywhere else', () => {
    for (const path of [
      '/app/monitor',
      '/app/settings',
      '/app/alerts',
      '/app/pricing-faq',
      '/app/',
      '/app/unknown',
    ]) {
      expect(isShellOmitted(path), path).toBe(false);
    }
  });
});
