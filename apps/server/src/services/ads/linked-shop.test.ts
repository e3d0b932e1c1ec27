import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { monitors } from '../../db/schema.ts';
import { createStore, type Store } from '../../db/store.ts';
import { databases } from '../../test/databases.ts';
import { insertMonitor, monitorRow, openTestIncident, userWithVerifiedEmail } from '../../test/engine-kit.ts';
import type { HourFigures } from './baseline.ts';
import { createLinkedShops, holdBack, shopCannotSell, type ShopOutage } from './linked-shop.ts';

const NOW = new Date('2026-11-24T19:30:00Z'); // 14:30 in New York
const OUTAGE: ShopOutage = {
  monitorId: 'm1',
  name: 'Hoodies storefront',
  since: new Date('2026-11-24T17:15:00Z'), // 12:15 in New York
  summary: 'HTTP 503 from https://hoodies.example',
};
const TODAY: HourFigures[] = Array.from({ length: 7 }, (_, i) => ({
  date: '2026-11-24',
  hour: 8 + i,
  spend: 10,
  impressions: 100,
}));

describe('shopCannotSell()', () => {
  const base = {
    points: TODAY,
    timeZone: 'America/New_York',
    currency: 'USD',
    now: NOW,
    pause: 'Summer sale',
  };

  it('passes while the linked shop can sell', () => {
    expect(shopCannotSell({ ...base, outage: null })).toMatchObject({ key: 'shop_cannot_sell', ok: true });
  });

  it('fails at once with the spend since the shop broke and what to pause', () => {
    const result = shopCannotSell({ ...base, outage: OUTAGE });
    expect(result).toMatchObject({ key: 'shop_cannot_sell', ok: false, confirmed: true });
    // 12:00 counts three quarters (7.50), 13:00 and 14:00 whole: $27.50.
    expect(result.summary).toBe(
      'Ads are spending while Hoodies storefront cannot sell (HTTP 503 from https://hoodies.example, since 17:15 UTC). The ads spent $27.50 since then: pause Summer sale until it is back.',
    );
  });

  it('counts from midnight for a shop that broke before today, and says so', () => {
    const result = shopCannotSell({
      ...base,
      outage: { ...OUTAGE, since: new Date('2026-11-23T20:00:00Z') },
    });
    expect(result.summary).toContain('The ads spent $70.00 since midnight');
  });

  it('still alerts when the figures could not be read', () => {
    const result = shopCannotSell({ ...base, points: null, outage: OUTAGE });
    expect(result.ok).toBe(false);
    expect(result.summary).toContain('The ads keep spending: pause Summer sale');
  });
});

describe('holdBack()', () => {
  const results = [
    { key: 'shop_cannot_sell', ok: false, summary: 'spending' },
    { key: 'ad_disapproved', ok: false, summary: 'Hoodie ad is DISAPPROVED (DESTINATION_NOT_WORKING)' },
    { key: 'spend_anomaly', ok: true, summary: 'normal' },
    { key: 'connection_lost', ok: false, summary: 'revoked' },
  ];

  it('holds back the account’s own failures while the shop cannot sell, not the link or the connection', () => {
    expect(holdBack(results, OUTAGE)).toEqual([
      results[0],
      {
        key: 'ad_disapproved',
        ok: null,
        summary:
          'held back while Hoodies storefront cannot sell (Hoodie ad is DISAPPROVED (DESTINATION_NOT_WORKING))',
      },
      results[2],
      results[3],
    ]);
  });

  it('changes nothing while the shop can sell', () => {
    expect(holdBack(results, null)).toBe(results);
  });
});

describe.each(databases)('linked shops on $name', (testDatabase) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;

  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    store = createStore(database.db);
  });
  afterAll(() => drop());

  it('reads the linked monitor’s oldest unresolved incident, and re-checks its ads monitors when it changes', async () => {
    const owner = await userWithVerifiedEmail(store, NOW);
    const later = new Date(NOW.getTime() + 3_600_000);
    const shopId = await insertMonitor(database.db, {
      userId: owner.id,
      url: 'https://hoodies.example',
      email: owner.email,
      name: 'Hoodies storefront',
      nextCheckAt: later,
    });
    const adsId = await insertMonitor(database.db, {
      userId: owner.id,
      url: 'https://unused.example',
      email: owner.email,
      name: 'Google Ads',
      nextCheckAt: later,
    });
    await database.db
      .update(monitors)
      .set({ service: 'google_ads', linkedMonitorId: shopId })
      .where(eq(monitors.id, adsId));
    const linked = createLinkedShops(store.incidents);

    expect(await linked.outageOf(shopId)).toBeNull();
    const shop = await monitorRow(database.db, shopId);
    await openTestIncident(store, {
      monitorId: shopId,
      userId: owner.id,
      alertSettings: shop.alertSettings,
      now: NOW,
      summary: 'HTTP 503 from https://hoodies.example',
    });
    // Two lookups in the same moment share one query, and each gets its answer.
    const [outage, none] = await Promise.all([linked.outageOf(shopId), linked.outageOf(adsId)]);
    expect(outage).toEqual({
      monitorId: shopId,
      name: 'Hoodies storefront',
      since: NOW,
      summary: 'HTTP 503 from https://hoodies.example',
    });
    expect(none).toBeNull();

    expect(await store.checks.requestLinkedChecks([shopId], NOW)).toBe(1);
    expect((await monitorRow(database.db, adsId)).nextCheckAt).toEqual(NOW);
    expect((await monitorRow(database.db, shopId)).nextCheckAt).toEqual(later);

    await store.alerting.resolveIncident(shopId, 'http_status', later);
    expect(await linked.outageOf(shopId)).toBeNull();

    // Deleting the shop monitor unlinks the ads monitor instead of failing or deleting it.
    await database.db.delete(monitors).where(eq(monitors.id, shopId));
    expect((await monitorRow(database.db, adsId)).linkedMonitorId).toBeNull();
  });
});
