import { describe, expect, it } from 'vitest';
import {
  between,
  bool,
  buildQuery,
  date,
  enumValue,
  eq,
  GaqlBuildError,
  int,
  isIn,
  ne,
  quote,
  text,
} from './gaql.ts';
import { metricsQuery, STATE_QUERY } from './google-ads-api.ts';

describe('GAQL building', () => {
  it('writes SELECT, FROM, WHERE with AND, ORDER BY and LIMIT', () => {
    expect(
      buildQuery({
        select: ['campaign.id', 'campaign.name'],
        from: 'campaign',
        where: [eq('campaign.status', enumValue('ENABLED')), isIn('campaign.id', [int('1'), int(2)])],
        orderBy: [{ field: 'campaign.name' }, { field: 'campaign.id', descending: true }],
        limit: 10,
      }),
    ).toBe(
      "SELECT campaign.id, campaign.name FROM campaign WHERE campaign.status = 'ENABLED' AND campaign.id IN (1, 2) ORDER BY campaign.name ASC, campaign.id DESC LIMIT 10",
    );
  });

  it('quotes strings and escapes quotes and backslashes, so input cannot end the literal', () => {
    expect(quote("Bob's \\ shop")).toBe("'Bob\\'s \\\\ shop'");
    expect(eq('campaign.name', text("x' OR campaign.id > '0")).gaql).toBe(
      "campaign.name = 'x\\' OR campaign.id > \\'0'",
    );
    expect(() => quote('two\nlines')).toThrow(GaqlBuildError);
  });

  it('refuses field names, enum constants, numbers and dates that are not what they claim', () => {
    expect(() => buildQuery({ select: ['campaign.id FROM customer --'], from: 'campaign' })).toThrow(
      GaqlBuildError,
    );
    expect(() => buildQuery({ select: ['campaign.id'], from: 'campaign; DROP' })).toThrow(GaqlBuildError);
    expect(() => ne('campaign.status', enumValue("ENABLED' OR 1=1"))).toThrow(GaqlBuildError);
    expect(() => eq('campaign.id', int('1 OR 1=1'))).toThrow(GaqlBuildError);
    expect(() => eq('segments.date', date('2025-02-30'))).toThrow(GaqlBuildError);
    expect(() => isIn('campaign.id', [])).toThrow(GaqlBuildError);
    expect(() => buildQuery({ select: ['campaign.id'], from: 'campaign', limit: 0 })).toThrow(GaqlBuildError);
  });

  it('writes dates, ranges and booleans', () => {
    expect(between('segments.date', date('2025-01-01'), date('2025-01-31')).gaql).toBe(
      "segments.date BETWEEN '2025-01-01' AND '2025-01-31'",
    );
    expect(eq('customer.manager', bool(false)).gaql).toBe('customer.manager = FALSE');
    expect(metricsQuery(['2025-03-04', '2025-02-25'])).toBe(
      "SELECT segments.date, segments.hour, metrics.impressions, metrics.cost_micros FROM customer WHERE segments.date IN ('2025-03-04', '2025-02-25')",
    );
    expect(STATE_QUERY).toMatch(/FROM ad_group_ad WHERE ad_group_ad.status != 'REMOVED'$/);
  });
});
