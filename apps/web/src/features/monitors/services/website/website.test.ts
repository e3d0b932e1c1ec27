import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../../test/monitor-fixtures.ts';
import { checkConditions, defaultConditions } from '../conditions.ts';
import { websiteService } from './index.ts';

const definition = catalogue.list.find((entry) => entry.service === 'website')!;

function check(url: string, change: (c: ReturnType<typeof defaultConditions>) => void = () => {}) {
  const values = defaultConditions(definition);
  change(values);
  const errors = {};
  return websiteService.check({ url }, checkConditions(errors, definition, values));
}

describe('website service', () => {
  it('builds the body part from the address and the conditions', () => {
    expect(check('  https://shop.example.com/cart ')).toEqual({
      errors: {},
      part: {
        service: 'website',
        target: { url: 'https://shop.example.com/cart' },
        conditions: {
          http_status: { enabled: true },
          timeout: { enabled: true, timeoutMs: 10_000 },
          keyword: { enabled: false, keyword: '', mode: 'missing' },
          slow_response: { enabled: false, thresholdMs: 3000 },
          tls_expiry: { enabled: true, days: 14 },
          password_page: { enabled: false },
        },
      },
    });
  });

  it('refuses an address without http(s), with the contracts message on target.url', () => {
    const { errors, part } = check('ftp://shop.example.com');
    expect(part).toBeNull();
    expect(errors).toEqual({ 'target.url': 'Enter a full web address starting with http:// or https://.' });
  });

  it('maps the server’s target paths onto its field', () => {
    expect(websiteService.formFieldOf?.('target')).toBe('target.url');
    expect(websiteService.formFieldOf?.('target.url')).toBe('target.url');
    expect(websiteService.shownErrors.test('target.url')).toBe(true);
  });
});
