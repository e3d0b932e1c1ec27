import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Monitor } from '@vigil/contracts';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { aConnection, aMonitor, anAlert, aShopifyMonitor, failed, ok } from '../test/monitor-fixtures.ts';
import { getOAuthUri } from '../features/monitors/api/get-oauth-uri.ts';
import { readOAuthReturn } from '../features/monitors/connect/oauth-return.ts';
import { getMonitors } from '../features/monitors/api/get-monitors.ts';
import { pauseMonitors } from '../features/monitors/api/pause-monitors.ts';
import { startMonitors } from '../features/monitors/api/start-monitors.ts';
import { deleteMonitors } from '../features/monitors/api/delete-monitors.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { getMonitorStats } from '../features/monitors/api/get-monitor-stats.ts';
import { getMonitorChecks } from '../features/monitors/api/get-monitor-checks.ts';
import { getAlerts } from '../features/alerts/api/get-alerts.ts';
import { checkMonitorNow } from '../features/monitors/api/check-monitor-now.ts';
import { getContactStatus } from '../features/monitors/api/get-contact-status.ts';
import MonitorPage from './monitor-page.tsx';

vi.mock('../features/monitors/api/get-monitors.ts', () => ({
  getMonitors: vi.fn(),
  peekMonitors: () => undefined,
  MONITOR_PAGE_SIZE: 20,
}));
vi.mock('../features/monitors/api/pause-monitors.ts', () => ({ pauseMonitors: vi.fn() }));
vi.mock('../features/monitors/api/start-monitors.ts', () => ({ startMonitors: vi.fn() }));
vi.mock('../features/monitors/api/delete-monitors.ts', () => ({ deleteMonitors: vi.fn() }));
vi.mock('../features/monitors/api/get-monitor-info.ts', () => ({
  getMonitorInfo: vi.fn(),
  peekMonitorInfo: () => undefined,
}));
vi.mock('../features/monitors/api/get-monitor-stats.ts', () => ({ getMonitorStats: vi.fn() }));
vi.mock('../features/monitors/api/get-monitor-checks.ts', () => ({ getMonitorChecks: vi.fn() }));
vi.mock('../features/alerts/api/get-alerts.ts', () => ({ getAlerts: vi.fn() }));
vi.mock('../features/monitors/api/check-monitor-now.ts', () => ({ checkMonitorNow: vi.fn() }));
vi.mock('../features/monitors/api/get-contact-status.ts', () => ({ getContactStatus: vi.fn() }));
vi.mock('../features/monitors/api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const storefront = aMonitor({ monitorId: id(1), name: 'Storefront', status: 'up' });
const checkout = aMonitor({
  monitorId: id(2),
  name: 'Checkout',
  status: 'down',
  target: { url: 'https://shop.example.com/checkout' },
});
const blog = aMonitor({ monitorId: id(3), name: 'Blog', status: 'paused', paused: true, uptime24h: null });
const pageOf = (list: Monitor[] = [storefront, checkout, blog], total = list.length, page = 1) =>
  ok({ list, total, page, pageSize: 20 });

function renderAt(url: string) {
  return renderWithProviders(
    <Routes>
      <Route
        path="/monitor"
        element={
          <>
            <MonitorPage />
            <Where />
          </>
        }
      />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

beforeEach(() => {
  for (const fn of [
    getMonitors,
    pauseMonitors,
    startMonitors,
    deleteMonitors,
    getMonitorInfo,
    getMonitorStats,
    getMonitorChecks,
    getAlerts,
    checkMonitorNow,
    getContactStatus,
    getOAuthUri,
  ]) {
    vi.mocked(fn).mockReset();
  }
  vi.mocked(getMonitorChecks).mockResolvedValue(ok({ checks: [] }));
  vi.mocked(getContactStatus).mockResolvedValue(
    ok({ list: [], usage: { sms: { used: 0, limit: 0 }, calls: { used: 0, limit: 0 } } }),
  );
});

describe('monitor list', () => {
  it('shows each monitor with its status in words, target, uptime and response time', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf());
    renderAt('/app/monitor');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[2]!).getByText('Down')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('link', { name: 'Checkout' })).toHaveAttribute(
      'href',
      `/app/monitor?monitorId=${id(2)}`,
    );
    expect(within(rows[2]!).getByText('https://shop.example.com/checkout')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('99.5%')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('230 ms')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('2 minutes ago')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Paused')).toBeInTheDocument();
    expect(getMonitors).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, expect.any(AbortSignal), false);
  });

  it('on a phone shows each monitor as a card with its numbers, and selects from there', async () => {
    (window as unknown as { happyDOM: { setViewport(size: object): void } }).happyDOM.setViewport({
      width: 390,
      height: 844,
    });
    vi.mocked(getMonitors).mockResolvedValue(pageOf());
    const user = userEvent.setup();
    renderAt('/app/monitor');
    const list = await screen.findByRole('list', { name: 'Your monitors, 1 to 3 of 3' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(within(cards[1]!).getByRole('link', { name: 'Checkout' })).toHaveAttribute(
      'href',
      `/app/monitor?monitorId=${id(2)}`,
    );
    expect(cards[1]).toHaveTextContent('Down');
    expect(cards[0]).toHaveTextContent(/Last check2 minutes ago.*Uptime \(24 h\)99\.5%.*Response230 ms/);
    await user.click(screen.getByRole('checkbox', { name: 'Select all monitors on this page' }));
    expect(screen.getByRole('region', { name: 'Selected monitors' })).toHaveTextContent('3 selected');
  });

  it('says which monitors Vigil paused because of the plan, and why', async () => {
    const overLimit = aMonitor({
      monitorId: id(4),
      name: 'Fourth shop',
      status: 'paused',
      paused: true,
      pauseReason: 'Free runs 3 monitors at a time: this one waits for a plan with more.',
    });
    vi.mocked(getMonitors).mockResolvedValue(pageOf([storefront, blog, overLimit]));
    renderAt('/app/monitor');
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(within(rows[3]!).getByText('Paused by plan')).toBeInTheDocument();
    expect(rows[3]).toHaveTextContent('Free runs 3 monitors at a time: this one waits for a plan with more.');
    // Paused by the person: no plan reason.
    expect(within(rows[2]!).getByText('Paused')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('Paused by plan')).not.toBeInTheDocument();
  });

  it('pauses and starts exactly the selected monitors, then reloads', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf());
    vi.mocked(pauseMonitors).mockResolvedValue(ok({ count: 2 }));
    vi.mocked(startMonitors).mockResolvedValue(ok({ count: 1 }));
    const user = userEvent.setup();
    renderAt('/app/monitor');
    await user.click(await screen.findByRole('checkbox', { name: 'Select Storefront' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Checkout' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all monitors on this page' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(pauseMonitors).toHaveBeenCalledWith([id(1), id(2)]);
    expect(await screen.findByText('2 monitors paused')).toBeInTheDocument();
    await waitFor(() => expect(getMonitors).toHaveBeenCalledTimes(2));
    expect(screen.queryByText('2 selected')).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select Blog' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(startMonitors).toHaveBeenCalledWith([id(3)]);
    expect(deleteMonitors).not.toHaveBeenCalled();
  });

  it('deletes every monitor of the page through select-all, after a confirmation', async () => {
    vi.mocked(getMonitors).mockResolvedValueOnce(pageOf()).mockResolvedValue(pageOf([], 0));
    vi.mocked(deleteMonitors).mockResolvedValue(ok({ count: 3 }));
    const user = userEvent.setup();
    renderAt('/app/monitor');
    await user.click(await screen.findByRole('checkbox', { name: 'Select all monitors on this page' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 3 monitors?' });
    expect(deleteMonitors).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete 3 monitors' }));
    expect(deleteMonitors).toHaveBeenCalledWith([id(1), id(2), id(3)]);
    expect(await screen.findByText('No monitors yet')).toBeInTheDocument();
  });

  it('cancelling the confirmation deletes nothing', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf());
    const user = userEvent.setup();
    renderAt('/app/monitor');
    await user.click(await screen.findByRole('checkbox', { name: 'Select Blog' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this monitor?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleteMonitors).not.toHaveBeenCalled();
  });

  it('keeps the list when a background refresh fails, says since when it is current, and asks quietly', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      vi.mocked(getMonitors).mockResolvedValueOnce(pageOf()).mockResolvedValueOnce(failed(0));
      renderAt('/app/monitor');
      expect(await screen.findByRole('link', { name: 'Checkout' })).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(await screen.findByText(/^Could not refresh: showing what was current at/)).toBeInTheDocument();
      expect(getMonitors).toHaveBeenLastCalledWith({ page: 1, pageSize: 20 }, expect.any(AbortSignal), true);
      expect(screen.getByRole('link', { name: 'Checkout' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();

      vi.mocked(getMonitors).mockResolvedValueOnce(pageOf([storefront]));
      await vi.advanceTimersByTimeAsync(30_000);
      await waitFor(() => expect(screen.queryByRole('link', { name: 'Checkout' })).not.toBeInTheDocument());
      expect(screen.queryByText(/^Could not refresh/)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('pages through 20 at a time, keeping the page in the address', async () => {
    const many = Array.from({ length: 20 }, (_, n) =>
      aMonitor({ monitorId: id(n + 1), name: `Shop ${n + 1}` }),
    );
    vi.mocked(getMonitors).mockImplementation(async ({ page }) =>
      page === 1 ? pageOf(many, 45, 1) : pageOf([aMonitor({ monitorId: id(99), name: 'Shop 21' })], 45, page),
    );
    const user = userEvent.setup();
    renderAt('/app/monitor');
    expect(await screen.findByText('1–20 of 45')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByRole('link', { name: 'Shop 21' })).toBeInTheDocument();
    expect(getMonitors).toHaveBeenLastCalledWith({ page: 2, pageSize: 20 }, expect.any(AbortSignal), false);
    expect(screen.getByTestId('where')).toHaveTextContent('/monitor?page=2');
    expect(screen.getByText('21–21 of 45')).toBeInTheDocument();
  });

  it('invites to create the first monitor when there is none', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf([], 0));
    renderAt('/app/monitor');
    expect(await screen.findByRole('link', { name: 'Create your first monitor' })).toHaveAttribute(
      'href',
      '/app/monitor_create',
    );
    expect(screen.getByRole('link', { name: 'New monitor' })).toBeInTheDocument();
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('offers a retry when the list fails to load', async () => {
    vi.mocked(getMonitors).mockResolvedValueOnce(failed()).mockResolvedValue(pageOf());
    const user = userEvent.setup();
    renderAt('/app/monitor');
    expect(await screen.findByText('Your monitors could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Storefront' })).toBeInTheDocument();
  });

  it('opens the detail when a row is clicked', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf());
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(checkout));
    vi.mocked(getMonitorStats).mockResolvedValue(
      ok({ range: '24h', uptime: { '24h': 98, '7d': 99, '30d': 99.9 }, series: [], downtime: [] }),
    );
    vi.mocked(getAlerts).mockResolvedValue(ok({ list: [], total: 0, page: 1, pageSize: 5 }));
    const user = userEvent.setup();
    renderAt('/app/monitor');
    await user.click(await screen.findByText('https://shop.example.com/checkout'));
    expect(screen.getByTestId('where')).toHaveTextContent(`/monitor?monitorId=${id(2)}`);
    expect(await screen.findByRole('heading', { name: 'Checkout', level: 1 })).toBeInTheDocument();
  });
});

describe('monitor detail', () => {
  const stats = (range: '24h' | '7d' | '30d') =>
    ok({
      range,
      uptime: { '24h': 98.5, '7d': 99.2, '30d': 99.9 },
      series: [
        { at: '2026-03-10T10:00:00Z', checks: 12, failures: 1, p50Ms: 200, p95Ms: 900 },
        { at: '2026-03-10T11:00:00Z', checks: 12, failures: 0, p50Ms: 300, p95Ms: 400 },
      ],
      downtime: [],
    });

  beforeEach(() => {
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(checkout));
    vi.mocked(getMonitorStats).mockImplementation(async ({ range }) => stats(range));
    vi.mocked(getAlerts).mockResolvedValue(
      ok({ list: [anAlert({ monitorId: id(2) })], total: 1, page: 1, pageSize: 5 }),
    );
  });

  it('shows uptime over 24 h, 7 d and 30 d, a text summary of the chart and the recent incidents', async () => {
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    expect(await screen.findByRole('heading', { name: 'Checkout', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Down')).toBeInTheDocument();
    expect(await screen.findByText('98.5%')).toBeInTheDocument();
    expect(screen.getByText('99.2%')).toBeInTheDocument();
    expect(screen.getByText('99.9%')).toBeInTheDocument();
    // The sections below the uptime figures follow one a frame (useStagedReveal).
    expect(
      await screen.findByText(
        /^Over the last 24 hours, the median response time averaged 250 ms;.*1 of 24 checks failed\.$/,
      ),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(getAlerts).toHaveBeenCalledWith(
        { page: 1, pageSize: 5, monitorId: id(2) },
        expect.any(AbortSignal),
        false,
      ),
    );
    expect(await screen.findByText('The page answered 503 Service Unavailable.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/app/monitor_edit?monitorId=${id(2)}`,
    );
  });

  it('says when part of the last check could not run, though the monitor is up', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(
      ok({ ...checkout, status: 'up', lastError: 'Not checked: the shop kept Vigil waiting.' }),
    );
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    const notice = await screen.findByRole('alert', { name: 'Part of the last check could not run' });
    expect(notice).toHaveTextContent('Not checked: the shop kept Vigil waiting.');
    expect(screen.queryByText('The last check failed')).not.toBeInTheDocument();
  });

  it('switches the chart between 24 h, 7 d and 30 d', async () => {
    const user = userEvent.setup();
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    await screen.findByText(/^Over the last 24 hours/);
    await user.click(screen.getByRole('radio', { name: '7 days' }));
    expect(getMonitorStats).toHaveBeenLastCalledWith(
      { monitorId: id(2), range: '7d' },
      expect.any(AbortSignal),
    );
    expect(await screen.findByText(/^Over the last 7 days/)).toBeInTheDocument();
  });

  it('checks now, then shows the new check without a page reload', async () => {
    const checked = { ...checkout, lastCheckedAt: new Date().toISOString(), status: 'up' as const };
    vi.mocked(checkMonitorNow).mockResolvedValue(ok(checkout));
    const user = userEvent.setup();
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    await user.click(await screen.findByRole('button', { name: 'Check now' }));
    expect(checkMonitorNow).toHaveBeenCalledWith(id(2));
    expect(await screen.findByText('Checking now')).toBeInTheDocument();
    const statsCalls = vi.mocked(getMonitorStats).mock.calls.length;
    const checksCalls = vi.mocked(getMonitorChecks).mock.calls.length;
    const alertCalls = vi.mocked(getAlerts).mock.calls.length;
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(checked));
    await waitFor(() => expect(screen.getByText('Up')).toBeInTheDocument(), { timeout: 5000 });
    // The new check shows in the numbers and the incidents too, not only in the header.
    await waitFor(() => expect(vi.mocked(getMonitorStats).mock.calls.length).toBeGreaterThan(statsCalls));
    await waitFor(() => expect(vi.mocked(getMonitorChecks).mock.calls.length).toBeGreaterThan(checksCalls));
    await waitFor(() => expect(vi.mocked(getAlerts).mock.calls.length).toBeGreaterThan(alertCalls));
  });

  it('cannot check a paused monitor now', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(ok({ ...checkout, status: 'paused', paused: true }));
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    expect(await screen.findByRole('button', { name: 'Check now' })).toBeDisabled();
  });

  it('explains a pause by the plan, with a way to the plans', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(
      ok({
        ...checkout,
        status: 'paused',
        paused: true,
        pauseReason: 'Your Free period ended on March 1, 2026, so no plan runs this monitor.',
      }),
    );
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    const notice = await screen.findByRole('alert', { name: 'Paused by your plan' });
    expect(notice).toHaveTextContent(
      'Your Free period ended on March 1, 2026, so no plan runs this monitor.',
    );
    expect(within(notice).getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
    expect(screen.getByText('Paused by plan')).toBeInTheDocument();
  });

  it('a monitor the person paused says how to start it again, with no plan notice', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(ok({ ...checkout, status: 'paused', paused: true }));
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    expect(await screen.findByRole('alert', { name: 'Paused' })).toHaveTextContent(
      'until you start this monitor again',
    );
    expect(screen.queryByText('Paused by your plan')).not.toBeInTheDocument();
  });

  it('pauses this monitor, and deletes it after a confirmation, back to the list', async () => {
    vi.mocked(pauseMonitors).mockResolvedValue(ok({ count: 1 }));
    vi.mocked(deleteMonitors).mockResolvedValue(ok({ count: 1 }));
    vi.mocked(getMonitors).mockResolvedValue(pageOf([storefront]));
    const user = userEvent.setup();
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(pauseMonitors).toHaveBeenCalledWith([id(2)]);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this monitor?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete monitor' }));
    expect(deleteMonitors).toHaveBeenCalledWith([id(2)]);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/monitor$/));
  });

  it("shows who gets alerts: each contact's state in words with its message, and the month's use", async () => {
    vi.mocked(getContactStatus).mockResolvedValue(
      ok({
        list: [
          {
            channel: 'call',
            address: '+12015550123',
            state: 'quota_exhausted',
            message: 'The 100 calls of this month are used: alerts go by SMS and email until June 1.',
          },
          {
            channel: 'sms',
            address: '+12015550123',
            state: 'opted_out',
            message: 'This number replied STOP: reply START from it to get texts again.',
          },
          { channel: 'email', address: 'ana@shop.com', state: 'ok', message: 'Alerts go to this address.' },
        ],
        usage: { sms: { used: 37, limit: 500 }, calls: { used: 100, limit: 100 } },
      }),
    );
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    const card = await screen.findByRole('region', { name: 'Who gets alerts' });
    expect(await within(card).findByText('Replied STOP')).toBeInTheDocument();
    expect(getContactStatus).toHaveBeenCalledWith(id(2), expect.any(AbortSignal));
    const [call, sms, email] = within(card).getAllByRole('listitem');
    expect(call).toHaveTextContent(/Phone call\s*\+12015550123/);
    expect(within(call!).getByText('Monthly limit reached')).toBeInTheDocument();
    expect(call).toHaveTextContent('The 100 calls of this month are used');
    expect(within(call!).getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
    expect(sms).toHaveTextContent('This number replied STOP: reply START from it to get texts again.');
    expect(within(email!).getByText('Gets alerts')).toBeInTheDocument();
    expect(within(card).getByText('37 of 500 used')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'SMS used this month' })).toHaveAttribute(
      'aria-valuenow',
      '7',
    );
    expect(within(card).getByText('100 of 100 used')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Calls used this month' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
  });

  it('says when no channel is ticked, and that the plan has no calls', async () => {
    vi.mocked(getContactStatus).mockResolvedValue(
      ok({ list: [], usage: { sms: { used: 0, limit: 100 }, calls: { used: 0, limit: 0 } } }),
    );
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    const card = await screen.findByRole('region', { name: 'Who gets alerts' });
    expect(await within(card).findByText(/No channel is ticked, so nobody is alerted/)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Choose who gets alerts' })).toHaveAttribute(
      'href',
      `/app/monitor_edit?monitorId=${id(2)}`,
    );
    expect(within(card).getByText('0 of 100 used')).toBeInTheDocument();
    expect(within(card).getByText('Not included in your plan')).toBeInTheDocument();
    expectNoPlaceholderWords(card.textContent);
  });

  it('offers a retry when who gets alerts cannot be loaded', async () => {
    vi.mocked(getContactStatus).mockResolvedValueOnce(failed());
    const user = userEvent.setup();
    renderAt(`/app/monitor?monitorId=${id(2)}`);
    const card = await screen.findByRole('region', { name: 'Who gets alerts' });
    await user.click(await within(card).findByRole('button', { name: 'Try again' }));
    expect(await within(card).findByText(/No channel is ticked/)).toBeInTheDocument();
    expect(getContactStatus).toHaveBeenCalledTimes(2);
  });
});

describe('Shopify monitors', () => {
  const hoodies = aShopifyMonitor({ monitorId: id(7), name: 'Hoodies shop' });
  const lostHoodies = aShopifyMonitor({
    monitorId: id(8),
    name: 'Socks shop',
    target: { ...hoodies.target, shop: 'socks.myshopify.com' },
    connection: aConnection({
      status: 'lost',
      statusReason: 'The Vigil app was uninstalled from the shop.',
      account: 'socks.myshopify.com',
    }),
  });
  const authorize = ok({
    url: 'https://socks.myshopify.com/admin/oauth/authorize?client_id=x',
    provider: 'shopify' as const,
    account: 'socks.myshopify.com',
    expiresAt: '2026-03-10T11:10:00Z',
  });

  beforeEach(() => {
    vi.mocked(getMonitorStats).mockResolvedValue(
      ok({ range: '24h', uptime: { '24h': 100, '7d': 100, '30d': 100 }, series: [], downtime: [] }),
    );
    vi.mocked(getAlerts).mockResolvedValue(ok({ list: [], total: 0, page: 1, pageSize: 5 }));
  });

  it('lists the shop and the number of products; a lost connection says so, with Reconnect', async () => {
    vi.mocked(getMonitors).mockResolvedValue(pageOf([hoodies, lostHoodies]));
    vi.mocked(getOAuthUri).mockResolvedValue(authorize);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const user = userEvent.setup();
    renderAt('/app/monitor?page=1');
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(within(rows[1]!).getByText('hoodies.myshopify.com · 1 product')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Connection lost')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Connection lost')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('The Vigil app was uninstalled from the shop.')).toBeInTheDocument();

    await user.click(within(rows[2]!).getByRole('button', { name: 'Reconnect socks.myshopify.com' }));
    expect(getOAuthUri).toHaveBeenCalledWith({
      service: 'shopify',
      shop: 'socks.myshopify.com',
      monitorId: id(8),
    });
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorize.data.url));
    expect(readOAuthReturn()?.returnTo).toBe('/monitor?page=1');
    // The button does not open the row's detail.
    expect(screen.getByTestId('where')).toHaveTextContent('/monitor?page=1');
    assign.mockRestore();
  });

  it('detail: the watched products with their prices when chosen, and a lost connection with Reconnect', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(lostHoodies));
    renderAt(`/app/monitor?monitorId=${id(8)}`);
    expect(await screen.findByRole('heading', { name: 'Socks shop', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'socks.myshopify.com' })).toHaveAttribute(
      'href',
      'https://hoodies.example.com',
    );
    const lost = screen.getByText(/^The Vigil app was uninstalled from the shop\./).closest('[role="alert"]');
    expect(lost).toHaveTextContent('Connection lost');
    expect(
      within(lost as HTMLElement).getByRole('button', { name: 'Reconnect socks.myshopify.com' }),
    ).toBeInTheDocument();
    const products = screen.getByRole('region', { name: 'Watched products' });
    expect(within(products).getByRole('link', { name: 'Hoodie 1' })).toHaveAttribute(
      'href',
      'https://hoodies.example.com/products/hoodie-1',
    );
    expect(within(products).getByText('Prices when chosen: Small $39.00 · Large $44.00')).toBeInTheDocument();
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('detail: no Reconnect while the connection works', async () => {
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(hoodies));
    renderAt(`/app/monitor?monitorId=${id(7)}`);
    expect(await screen.findByRole('region', { name: 'Watched products' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reconnect/ })).not.toBeInTheDocument();
  });
});
