import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { answerMonitorFormCalls, renderMonitorFormAt, signInOn } from '../test/monitor-form-pages.tsx';
import {
  aConnection,
  aFacebookAccount,
  aFacebookAdSet,
  aGoogleAdsMonitor,
  aMetaAdsMonitor,
  aMonitor,
  catalogue,
  connectionId,
  googleConnection,
  googleCustomers,
  hoodieCoAds,
  metaConnection,
  ok,
} from '../test/monitor-fixtures.ts';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { createMonitor } from '../features/monitors/api/create-monitor.ts';
import { updateMonitor } from '../features/monitors/api/update-monitor.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { getMonitors } from '../features/monitors/api/get-monitors.ts';
import { getConnections } from '../features/monitors/api/get-connections.ts';
import { getOAuthUri } from '../features/monitors/api/get-oauth-uri.ts';
import { getGoogleCustomers } from '../features/monitors/api/get-google-customers.ts';
import { getGoogleCustomerAds } from '../features/monitors/api/get-google-customer-ads.ts';
import { getFacebookAccounts } from '../features/monitors/api/get-facebook-accounts.ts';
import { getFacebookAdSets } from '../features/monitors/api/get-facebook-adsets.ts';
import { initialFormValues } from '../features/monitors/monitor-form.ts';
import {
  readOAuthReturn,
  markConnected,
  saveOAuthReturn,
} from '../features/monitors/connect/oauth-return.ts';
import { LINKED_SHOP_LABEL } from '../features/monitors/services/ads/linked-shop-field.tsx';

vi.mock('../features/monitors/api/get-monitor-service.ts', () => ({ getMonitorService: vi.fn() }));
vi.mock('../features/plans/api/get-plans.ts', () => ({ getPlans: vi.fn() }));
vi.mock('../features/monitors/api/create-monitor.ts', () => ({ createMonitor: vi.fn() }));
vi.mock('../features/monitors/api/update-monitor.ts', () => ({ updateMonitor: vi.fn() }));
vi.mock('../features/monitors/api/get-monitor-info.ts', () => ({ getMonitorInfo: vi.fn() }));
vi.mock('../features/monitors/api/get-monitors.ts', () => ({ getMonitors: vi.fn() }));
vi.mock('../features/monitors/api/get-verified-contacts.ts', () => ({ getVerifiedContacts: vi.fn() }));
vi.mock('../features/monitors/api/get-connections.ts', () => ({ getConnections: vi.fn() }));
vi.mock('../features/monitors/api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));
vi.mock('../features/monitors/api/get-google-customers.ts', () => ({ getGoogleCustomers: vi.fn() }));
vi.mock('../features/monitors/api/get-google-customer-ads.ts', () => ({ getGoogleCustomerAds: vi.fn() }));
vi.mock('../features/monitors/api/get-facebook-accounts.ts', () => ({ getFacebookAccounts: vi.fn() }));
vi.mock('../features/monitors/api/get-facebook-adsets.ts', () => ({ getFacebookAdSets: vi.fn() }));

// The whole form renders in happy-dom for each step; under a full parallel run that can pass 5 s.
vi.setConfig({ testTimeout: 30_000 });

const storefront = aMonitor();
const lostGoogle = aConnection({
  ...googleConnection,
  connectionId: connectionId(12),
  name: 'old@vigil.test',
  status: 'lost',
  statusReason: 'Google refused the refresh token: access was revoked.',
});

beforeEach(() => {
  for (const fn of [
    getMonitorService,
    getPlans,
    createMonitor,
    updateMonitor,
    getMonitorInfo,
    getMonitors,
    getConnections,
    getOAuthUri,
    getGoogleCustomers,
    getGoogleCustomerAds,
    getFacebookAccounts,
    getFacebookAdSets,
  ]) {
    vi.mocked(fn).mockReset();
  }
  answerMonitorFormCalls();
  signInOn('Free');
  vi.mocked(getConnections).mockImplementation(async (provider) =>
    ok({
      list:
        provider === 'google' ? [googleConnection, lostGoogle] : provider === 'meta' ? [metaConnection] : [],
    }),
  );
  vi.mocked(getMonitors).mockResolvedValue(ok({ list: [storefront], total: 1, page: 1, pageSize: 100 }));
  vi.mocked(getGoogleCustomers).mockResolvedValue(ok({ list: googleCustomers }));
  vi.mocked(getGoogleCustomerAds).mockResolvedValue(ok(hoodieCoAds));
  vi.mocked(getFacebookAccounts).mockResolvedValue(
    ok({ list: [aFacebookAccount(1), aFacebookAccount(2)], paging: { after: null, before: null } }),
  );
  vi.mocked(getFacebookAdSets).mockResolvedValue(
    ok({
      account: { accountId: '1010101010', name: 'Hoodie Co Ads', currency: 'USD', timeZone: 'UTC' },
      list: [aFacebookAdSet(1), aFacebookAdSet(2)],
      paging: { after: null, before: null },
    }),
  );
});

async function name(user: ReturnType<typeof userEvent.setup>, value: string) {
  await user.click(screen.getByRole('textbox', { name: /^Name/ }));
  await user.paste(value);
}

describe('/monitor_create, Google Ads', () => {
  it('creates a monitor on two ads of a client account under a manager', async () => {
    vi.mocked(createMonitor).mockResolvedValue(ok(aGoogleAdsMonitor()));
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Google Ads/ }));
    await user.click(await screen.findByRole('radio', { name: /merchant@vigil\.test/ }));
    const clients = await screen.findByRole('group', { name: 'Client accounts of Agency Manager' });
    expect(getGoogleCustomers).toHaveBeenCalledWith(
      { connectionId: googleConnection.connectionId },
      expect.any(AbortSignal),
    );
    await user.click(within(clients).getByRole('radio', { name: /Hoodie Co/ }));
    await user.click(await screen.findByRole('radio', { name: /Chosen campaigns and ads/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Zip hoodie sale' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pullover new colours' }));
    await name(user, 'Hoodie Co ads');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0]).toMatchObject({
      name: 'Hoodie Co ads',
      service: 'google_ads',
      target: {
        connectionId: googleConnection.connectionId,
        customer: 'customers/2223334444',
        campaignIds: [],
        adIds: ['customers/2223334444/adGroupAds/401~501', 'customers/2223334444/adGroupAds/402~503'],
        linkedMonitorId: null,
      },
      conditions: {
        spend_anomaly: { enabled: true, changePercent: 50 },
        shop_cannot_sell: { enabled: true },
      },
    });
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('asks for the Google account, then the Google Ads account', async () => {
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Google Ads/ }));
    await screen.findByRole('radio', { name: /merchant@vigil\.test/ });
    await name(user, 'Ads');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByText('Choose the Google account to read, or connect one.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /merchant@vigil\.test/ }));
    await screen.findByRole('radio', { name: /Hoodie Co/ });
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByText('Choose the Google Ads account to watch.')).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('shows a lost Google account with its reason and Reconnect, not choosable', async () => {
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Google Ads/ }));
    const lost = await screen.findByRole('group', { name: 'old@vigil.test: connection lost' });
    expect(
      within(lost).getByText('Google refused the refresh token: access was revoked.'),
    ).toBeInTheDocument();
    expect(within(lost).getByRole('button', { name: 'Reconnect old@vigil.test' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /old@vigil\.test/ })).not.toBeInTheDocument();
  });

  it('connects a Google account: saves the form and leaves for Google', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({
        url: 'https://accounts.google.com/o/oauth2/v2/auth?state=bind-abc',
        provider: 'google' as const,
        account: null,
        expiresAt: '2026-03-10T11:10:00Z',
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Google Ads/ }));
    await name(user, 'Google');
    await user.click(await screen.findByRole('button', { name: 'Connect Google Ads' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=bind-abc'),
    );
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'google_ads' });
    expect(readOAuthReturn()).toMatchObject({
      returnTo: '/monitor_create',
      provider: 'google',
      values: { service: 'google_ads', name: 'Google' },
    });
    assign.mockRestore();
  });

  it('comes back from Google with the form as it was and the Google account chosen', async () => {
    const values = { ...initialFormValues({ catalogue, plan: null }), name: 'Before Google' };
    saveOAuthReturn({ returnTo: '/monitor_create', provider: 'google', values });
    markConnected(googleConnection, '/monitor_create');
    renderMonitorFormAt('/app/monitor_create');
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('Before Google');
    expect(screen.getByRole('radio', { name: /^Google Ads/ })).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByRole('radio', { name: /merchant@vigil\.test/ })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(await screen.findByRole('radio', { name: /Hoodie Co/ })).toBeInTheDocument();
  });
});

describe('/monitor_edit, Google Ads', () => {
  it("lists the monitor's accounts and ads through the monitor and keeps its ads", async () => {
    const monitor = aGoogleAdsMonitor();
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(monitor));
    vi.mocked(updateMonitor).mockResolvedValue(ok(monitor));
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt(`/app/monitor_edit?monitorId=${monitor.monitorId}`);
    expect(await screen.findByRole('checkbox', { name: 'Zip hoodie sale' })).toBeChecked();
    expect(getGoogleCustomers).toHaveBeenCalledWith(
      { monitorId: monitor.monitorId },
      expect.any(AbortSignal),
    );
    expect(getGoogleCustomerAds).toHaveBeenCalledWith(
      { resourceName: 'customers/2223334444', source: { monitorId: monitor.monitorId } },
      expect.any(AbortSignal),
    );
    expect(screen.getByText('2 ads chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updateMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(updateMonitor).mock.calls[0]![0]).toMatchObject({
      monitorId: monitor.monitorId,
      service: 'google_ads',
      target: { customer: 'customers/2223334444', adIds: monitor.target.ads.map((ad) => ad.resourceName) },
    });
  });
});

describe('/monitor_create, Meta ads', () => {
  it('creates a monitor on an ad set of an ad account, linked to a website monitor', async () => {
    vi.mocked(createMonitor).mockResolvedValue(ok(aMetaAdsMonitor()));
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Meta ads/ }));
    await user.click(await screen.findByRole('radio', { name: /Demo Merchant/ }));
    await user.click(await screen.findByRole('radio', { name: /Hoodie Co Ads/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Ad set 2' }));
    const link = screen.getByLabelText(LINKED_SHOP_LABEL, { selector: 'input' });
    await waitFor(() => expect(link).toBeEnabled());
    await user.click(link);
    await user.click(await screen.findByRole('option', { name: /Storefront/ }));
    await name(user, 'Hoodie Co Meta');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0]).toMatchObject({
      name: 'Hoodie Co Meta',
      service: 'facebook_ads',
      target: {
        connectionId: metaConnection.connectionId,
        accountId: '1010101010',
        adSetIds: ['23850000000002'],
        linkedMonitorId: storefront.monitorId,
      },
      conditions: { spend_cap: { enabled: true, percent: 90 } },
    });
  });

  it('connects a Facebook account from the Connect Meta ads button', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({
        url: 'https://www.facebook.com/v23.0/dialog/oauth?state=bind-m',
        provider: 'meta' as const,
        account: null,
        expiresAt: '2026-03-10T11:10:00Z',
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderMonitorFormAt('/app/monitor_create');
    await user.click(await screen.findByRole('radio', { name: /^Meta ads/ }));
    await user.click(await screen.findByRole('button', { name: 'Connect Meta ads' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'facebook_ads' });
    expect(readOAuthReturn()?.provider).toBe('meta');
    assign.mockRestore();
  });
});
