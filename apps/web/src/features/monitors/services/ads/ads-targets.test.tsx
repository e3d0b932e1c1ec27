import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import {
  aGoogleAdsMonitor,
  aMetaAdsMonitor,
  aMonitor,
  googleConnection,
  metaConnection,
  ok,
} from '../../../../test/monitor-fixtures.ts';
import { getMonitorInfo } from '../../api/get-monitor-info.ts';
import { getOAuthUri } from '../../api/get-oauth-uri.ts';
import {
  GoogleAdsTargetDetail,
  GoogleAdsTargetHeader,
  GoogleAdsTargetSummary,
} from '../google-ads/google-ads-target.tsx';
import { MetaAdsTargetDetail, MetaAdsTargetSummary } from '../meta-ads/meta-ads-target.tsx';

vi.mock('../../api/get-monitor-info.ts', () => ({ getMonitorInfo: vi.fn() }));
vi.mock('../../api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));

const NOW = Date.parse('2026-04-27T12:00:00.000Z');
const storefront = aMonitor();

beforeEach(() => {
  vi.mocked(getMonitorInfo).mockReset();
  vi.mocked(getMonitorInfo).mockResolvedValue(ok(storefront));
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

describe('Google Ads targets', () => {
  it('sums up the account and what is watched', () => {
    renderWithProviders(<GoogleAdsTargetSummary monitor={aGoogleAdsMonitor()} />);
    expect(screen.getByText('Hoodie Co (222-333-4444) · 2 ads')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reconnect/ })).not.toBeInTheDocument();
  });

  it('heads the detail with the account and its currency', () => {
    renderWithProviders(<GoogleAdsTargetHeader monitor={aGoogleAdsMonitor()} />);
    expect(screen.getByText('Google Ads · Hoodie Co (222-333-4444) · 2 ads · USD')).toBeInTheDocument();
  });

  it('details a lost connection with Reconnect, the watched ads and the linked shop', async () => {
    const monitor = aGoogleAdsMonitor({
      connection: { ...googleConnection, status: 'lost', statusReason: null },
      target: { ...aGoogleAdsMonitor().target, linkedMonitorId: storefront.monitorId },
    });
    renderWithProviders(<GoogleAdsTargetDetail monitor={monitor} />);
    const lost = screen.getByRole('alert');
    expect(lost).toHaveTextContent('Google no longer accepts Vigil’s access to the account.');
    expect(within(lost).getByRole('button', { name: 'Reconnect merchant@vigil.test' })).toBeInTheDocument();
    const watched = screen.getByRole('region', { name: 'Watched in Google Ads' });
    expect(within(watched).getByText('Zip hoodie sale')).toBeInTheDocument();
    expect(within(watched).getByText('· Hoodies — search › Pullovers')).toBeInTheDocument();
    const linked = screen.getByRole('region', { name: 'Linked shop' });
    expect(await within(linked).findByRole('link', { name: 'Storefront' })).toHaveAttribute(
      'href',
      `/app/monitor?monitorId=${storefront.monitorId}`,
    );
    expect(getMonitorInfo).toHaveBeenCalledWith(storefront.monitorId, expect.any(AbortSignal));
  });

  it('says the whole account is watched, and that no shop is linked', () => {
    const monitor = aGoogleAdsMonitor({ target: { ...aGoogleAdsMonitor().target, ads: [] } });
    renderWithProviders(<GoogleAdsTargetDetail monitor={monitor} />);
    expect(screen.getByText(/The whole account Hoodie Co \(222-333-4444\)/)).toBeInTheDocument();
    expect(screen.getByText(/No shop linked/)).toBeInTheDocument();
    expect(getMonitorInfo).not.toHaveBeenCalled();
  });
});

describe('Meta ads targets', () => {
  it('sums up the ad account and its ad sets', () => {
    renderWithProviders(<MetaAdsTargetSummary monitor={aMetaAdsMonitor()} />);
    expect(screen.getByText('Hoodie Co Ads (act_1010101010) · 2 ad sets')).toBeInTheDocument();
  });

  it('warns in the list and the detail when Meta’s access ends within a week, with Reconnect', () => {
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({ url: 'x', provider: 'meta', account: null, expiresAt: '' }),
    );
    const monitor = aMetaAdsMonitor({
      connection: { ...metaConnection, expiresAt: '2026-05-01T00:00:00.000Z' },
    });
    const { unmount } = renderWithProviders(<MetaAdsTargetSummary monitor={monitor} />);
    expect(screen.getByText('Access ends soon')).toBeInTheDocument();
    unmount();
    renderWithProviders(<MetaAdsTargetDetail monitor={monitor} />);
    const warning = screen.getByRole('status');
    expect(warning).toHaveTextContent('Meta access ends on May 1, 2026. Reconnect to keep watching.');
    expect(within(warning).getByRole('button', { name: 'Reconnect Demo Merchant' })).toBeInTheDocument();
    const watched = screen.getByRole('region', { name: 'Watched ad sets' });
    expect(within(watched).getByText('Ad set 1')).toBeInTheDocument();
  });

  it('says nothing of an end weeks away, and watches every active ad set when none is chosen', () => {
    const monitor = aMetaAdsMonitor({
      connection: { ...metaConnection, expiresAt: '2026-06-20T00:00:00.000Z' },
      target: { ...aMetaAdsMonitor().target, adSets: [] },
    });
    renderWithProviders(<MetaAdsTargetDetail monitor={monitor} />);
    expect(screen.queryByText(/access ends/)).not.toBeInTheDocument();
    expect(screen.getByText(/Every active ad set of Hoodie Co Ads \(act_1010101010\)/)).toBeInTheDocument();
  });
});
