import { describe, expect, it } from 'vitest';
import {
  decideStartup,
  decodeRedirect,
  homeAfterStartup,
  isElsewhere,
  type StartupInput,
} from './startup.ts';

const NOW = 1_750_000_000;
const binding = encodeURIComponent(JSON.stringify({ auth: 'false', key: 'shop-42' }));
// What the query parser hands over for ?redirect=<binding>: the value decoded once.
const bindingParam = decodeURIComponent(binding);

const ready: StartupInput['user'] = {
  industry: 'Pets',
  telPhone: '+12015550123',
  contactEmail: 'owner@shop.com',
  plan: 'Free',
  planExpiresin: NOW + 3600,
};

function decide(user: Partial<StartupInput['user']>, query: Record<string, string> = {}, abPricing = false) {
  return decideStartup({ user: { ...ready, ...user }, query, now: NOW, abPricing });
}

function href(nav: ReturnType<typeof decideStartup>) {
  return nav ? `${nav.pathname}${nav.search}` : null;
}

describe('decideStartup rule 1: onboarding', () => {
  it('sends a user without an industry to /onboarding, replacing history', () => {
    expect(decide({ industry: null })).toEqual({ pathname: '/onboarding', search: '', replace: true });
  });

  it('treats an empty industry as missing', () => {
    expect(href(decide({ industry: '' }))).toBe('/onboarding');
  });

  it('sends a user with neither a phone nor a contact email to /onboarding', () => {
    expect(href(decide({ telPhone: null, contactEmail: null }))).toBe('/onboarding');
    expect(href(decide({ telPhone: '', contactEmail: '' }))).toBe('/onboarding');
  });

  it('lets either contact alone through', () => {
    expect(decide({ telPhone: null })).toBeNull();
    expect(decide({ contactEmail: null })).toBeNull();
  });

  it('keeps the redirect parameter', () => {
    const nav = decide({ industry: null }, { redirect: bindingParam, other: 'x' });
    expect(nav?.pathname).toBe('/onboarding');
    expect(new URLSearchParams(nav?.search).get('redirect')).toBe(bindingParam);
    expect(nav?.search).not.toContain('other');
  });

  it('comes before the pricing rules', () => {
    expect(href(decide({ industry: null, plan: 'Free', planExpiresin: '0' }, {}, true))).toBe('/onboarding');
  });
});

describe('decideStartup rule 2: a Free plan never started', () => {
  it("sends plan 'Free' with planExpiresin '0' to /pricing, keeping redirect", () => {
    const nav = decide({ plan: 'Free', planExpiresin: '0' }, { redirect: bindingParam });
    expect(nav?.pathname).toBe('/pricing');
    expect(new URLSearchParams(nav?.search).get('redirect')).toBe(bindingParam);
    expect(nav?.replace).toBe(true);
  });

  it('applies without AB_PRICING', () => {
    expect(href(decide({ plan: 'Free', planExpiresin: '0' }, {}, false))).toBe('/pricing');
  });

  it('does not apply to other plans with the sentinel', () => {
    expect(decide({ plan: 'Pro', planExpiresin: '0' }, {}, false)).toBeNull();
  });

  it('does not apply to a Free plan with a period', () => {
    expect(decide({ plan: 'Free', planExpiresin: NOW + 10 })).toBeNull();
  });

  it('comes before rule 3', () => {
    expect(href(decide({ plan: 'Free', planExpiresin: '0' }, {}, true))).toBe('/pricing');
  });
});

describe('decideStartup rule 3: an ended period with AB_PRICING', () => {
  it('sends the user to /pricing with planExpiresin in the query', () => {
    expect(href(decide({ planExpiresin: NOW - 1 }, {}, true))).toBe(`/pricing?planExpiresin=${NOW - 1}`);
  });

  it('compares in seconds: one second past is past, the same second is not', () => {
    expect(decide({ planExpiresin: NOW }, {}, true)).toBeNull();
    expect(href(decide({ planExpiresin: NOW - 1 }, {}, true))).toBe(`/pricing?planExpiresin=${NOW - 1}`);
    // A millisecond timestamp would be far in the future in seconds: the comparison is not in ms.
    expect(decide({ planExpiresin: (NOW - 1) * 1000 }, {}, true)).toBeNull();
  });

  it('does nothing without AB_PRICING', () => {
    expect(decide({ planExpiresin: NOW - 1 }, {}, false)).toBeNull();
  });

  it('applies to paid plans too, and to a non-Free plan holding the sentinel', () => {
    expect(href(decide({ plan: 'Pro', planExpiresin: NOW - 100 }, {}, true))).toBe(
      `/pricing?planExpiresin=${NOW - 100}`,
    );
    expect(href(decide({ plan: 'Pro', planExpiresin: '0' }, {}, true))).toBe('/pricing?planExpiresin=0');
  });

  it('also carries redirect, after planExpiresin', () => {
    expect(href(decide({ planExpiresin: NOW - 1 }, { redirect: bindingParam }, true))).toBe(
      `/pricing?planExpiresin=${NOW - 1}&redirect=${encodeURIComponent(bindingParam)}`,
    );
  });

  it('comes before rule 4', () => {
    expect(decide({ planExpiresin: NOW - 1 }, { redirect: bindingParam }, true)?.pathname).toBe('/pricing');
  });
});

describe('decideStartup rule 4: a pending binding', () => {
  it("goes to /monitor_create with the redirect parameter when it decodes to { auth: 'false', key }", () => {
    const nav = decide({}, { redirect: bindingParam });
    expect(nav).toEqual({ pathname: '/monitor_create', search: `?redirect=${binding}`, replace: true });
  });

  it('accepts a redirect still URI-encoded once more', () => {
    expect(decide({}, { redirect: binding })?.pathname).toBe('/monitor_create');
  });

  it("needs auth exactly 'false'", () => {
    const make = (value: unknown) => JSON.stringify(value);
    expect(decide({}, { redirect: make({ auth: false, key: 'k' }) })).toBeNull();
    expect(decide({}, { redirect: make({ auth: 'true', key: 'k' }) })).toBeNull();
  });

  it('needs a key', () => {
    expect(decide({}, { redirect: JSON.stringify({ auth: 'false' }) })).toBeNull();
    expect(decide({}, { redirect: JSON.stringify({ auth: 'false', key: '' }) })).toBeNull();
  });

  it('ignores a redirect that is not JSON, not an object, or malformed URI encoding', () => {
    expect(decide({}, { redirect: '/monitor' })).toBeNull();
    expect(decide({}, { redirect: '"auth"' })).toBeNull();
    expect(decide({}, { redirect: '[1,2]' })).toBeNull();
    expect(decide({}, { redirect: '%E0%A4%A' })).toBeNull();
    expect(decide({}, { redirect: '' })).toBeNull();
  });

  it('stays put for a ready user without redirect', () => {
    expect(decide({})).toBeNull();
  });
});

describe('decodeRedirect', () => {
  it('decodes URI-encoded JSON and returns null for anything else', () => {
    expect(decodeRedirect(binding)).toEqual({ auth: 'false', key: 'shop-42' });
    expect(decodeRedirect('{oops')).toBeNull();
  });

  it('keeps a literal % inside a key when the parameter was decoded already', () => {
    expect(decodeRedirect(JSON.stringify({ auth: 'false', key: '100%' }))).toEqual({
      auth: 'false',
      key: '100%',
    });
  });
});

describe('isElsewhere', () => {
  it('does not re-navigate once on the target, so rules never loop', () => {
    const target = decide({ industry: null }, { redirect: bindingParam });
    expect(target).not.toBeNull();
    expect(isElsewhere(target!, { pathname: '/onboarding', search: target!.search })).toBe(false);
    expect(isElsewhere(target!, { pathname: '/onboarding', search: '' })).toBe(true);
    expect(isElsewhere(target!, { pathname: '/monitor', search: target!.search })).toBe(true);
  });
});

describe('homeAfterStartup', () => {
  it('goes to /monitor, carrying redirect for the rules to see', () => {
    expect(homeAfterStartup({}).pathname).toBe('/monitor');
    expect(homeAfterStartup({ redirect: 'x' }).search).toBe('?redirect=x');
  });

  it('goes to the page opened before signing in, with its query, when there is one', () => {
    expect(homeAfterStartup({}, '/alerts?incident=42')).toEqual({
      pathname: '/alerts',
      search: '?incident=42',
      replace: true,
    });
    expect(homeAfterStartup({}, '/settings')).toMatchObject({ pathname: '/settings', search: '' });
    expect(homeAfterStartup({}, null).pathname).toBe('/monitor');
  });
});
