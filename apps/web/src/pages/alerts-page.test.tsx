import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { aMonitor, anAlert, ok } from '../test/monitor-fixtures.ts';
import { getAlerts } from '../features/alerts/api/get-alerts.ts';
import { acknowledgeAlert } from '../features/alerts/api/acknowledge-alert.ts';
import { resolveAlert } from '../features/alerts/api/resolve-alert.ts';
import { getMonitors } from '../features/monitors/api/get-monitors.ts';
import AlertsPage from './alerts-page.tsx';

vi.mock('../features/alerts/api/get-alerts.ts', () => ({ getAlerts: vi.fn() }));
vi.mock('../features/alerts/api/acknowledge-alert.ts', () => ({ acknowledgeAlert: vi.fn() }));
vi.mock('../features/alerts/api/resolve-alert.ts', () => ({ resolveAlert: vi.fn() }));
vi.mock('../features/monitors/api/get-monitors.ts', () => ({ getMonitors: vi.fn(), MONITOR_PAGE_SIZE: 20 }));

const storefront = aMonitor();
const checkout = aMonitor({ monitorId: '44444444-4444-4444-8444-444444444444', name: 'Checkout' });
const open = anAlert();
const resolved = anAlert({
  incidentId: '55555555-5555-4555-8555-555555555555',
  monitorId: checkout.monitorId,
  monitorName: 'Checkout',
  conditionLabel: 'Timeout',
  summary: 'No answer within 10 seconds.',
  state: 'resolved',
  acknowledgedAt: '2026-03-10T11:05:00.000Z',
  resolvedAt: '2026-03-10T11:20:00.000Z',
  deliveries: [
    {
      event: 'opened',
      channel: 'email',
      recipient: 'ana@shop.com',
      status: 'failed',
      attempts: 3,
      lastError: 'The mail server refused the address.',
      sentAt: null,
      fallbackFor: null,
    },
    {
      event: 'opened',
      channel: 'sms',
      recipient: '+12015550123',
      status: 'skipped',
      attempts: 0,
      lastError: 'SMS alerts are not part of this plan.',
      sentAt: null,
      fallbackFor: null,
    },
  ],
});
const page = (list = [open, resolved], total = list.length) => ok({ list, total, page: 1, pageSize: 20 });

/** The state column of an alert row. */
const stateOf = (row: HTMLElement) => within(row).getAllByRole('cell')[0]!;

function renderAt(url: string) {
  return renderWithProviders(
    <Routes>
      <Route
        path="/alerts"
        element={
          <>
            <AlertsPage />
            <Where />
          </>
        }
      />
    </Routes>,
    { url },
  );
}

beforeEach(() => {
  notifications.clean();
  vi.mocked(getAlerts).mockReset();
  vi.mocked(acknowledgeAlert).mockReset();
  vi.mocked(resolveAlert).mockReset();
  vi.mocked(getMonitors).mockReset();
  vi.mocked(getMonitors).mockResolvedValue(
    ok({ list: [storefront, checkout], total: 2, page: 1, pageSize: 100 }),
  );
});

describe('alerts page', () => {
  it('lists alerts with their times, state and delivery per channel, reasons in words', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    renderAt('/app/alerts');
    const table = await screen.findByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(stateOf(first!)).getByText('Open')).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'Storefront' })).toHaveAttribute(
      'href',
      `/app/monitor?monitorId=${open.monitorId}`,
    );
    expect(within(first!).getByText('Email: Sent')).toBeInTheDocument();
    expect(within(first!).getByText('Alert to ana@shop.com')).toBeInTheDocument();
    expect(within(stateOf(second!)).getByText('Resolved')).toBeInTheDocument();
    expect(within(second!).getByText('Email: Failed')).toBeInTheDocument();
    expect(within(second!).getByText('The mail server refused the address.')).toBeInTheDocument();
    expect(within(second!).getByText('Alert to ana@shop.com, 3 attempts')).toBeInTheDocument();
    expect(within(second!).getByText('SMS: Skipped')).toBeInTheDocument();
    expect(within(second!).getByText('SMS alerts are not part of this plan.')).toBeInTheDocument();
    expect(within(second!).getByText(/^Acknowledged/)).toBeInTheDocument();
    expect(within(second!).queryByRole('button', { name: /Acknowledge/ })).not.toBeInTheDocument();
    expect(getAlerts).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, expect.any(AbortSignal), false);
  });

  it('shows phone deliveries: delivered, not answered with the reason, the stand-in SMS, and a STOP skip', async () => {
    const phone = '+12015550123';
    const base = { event: 'opened', recipient: phone, attempts: 1, sentAt: '2026-03-10T11:00:05.000Z' };
    const calls = anAlert({
      deliveries: [
        {
          ...base,
          channel: 'call',
          status: 'unanswered',
          attempts: 3,
          lastError: 'No one answered 3 calls.',
          fallbackFor: null,
        },
        { ...base, channel: 'sms', status: 'delivered', lastError: null, fallbackFor: 'call' },
        {
          ...base,
          channel: 'email',
          recipient: 'ana@shop.com',
          status: 'sent',
          lastError: null,
          fallbackFor: null,
        },
      ],
    });
    const stopped = anAlert({
      incidentId: '66666666-6666-4666-8666-666666666666',
      deliveries: [
        {
          ...base,
          channel: 'sms',
          status: 'skipped',
          attempts: 0,
          sentAt: null,
          lastError: 'This number replied STOP: reply START to get texts again.',
          fallbackFor: null,
        },
        {
          ...base,
          channel: 'email',
          recipient: 'ana@shop.com',
          status: 'sent',
          lastError: null,
          fallbackFor: 'sms',
        },
      ],
    });
    vi.mocked(getAlerts).mockResolvedValue(page([calls, stopped]));
    renderAt('/app/alerts');
    const table = await screen.findByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    const firstDeliveries = within(first!).getAllByRole('listitem');
    expect(firstDeliveries.map((item) => item.textContent)).toEqual([
      'Email: SentAlert to ana@shop.com',
      'Call: Not answeredAlert to +12015550123, 3 attemptsNo one answered 3 calls.',
      'SMS: DeliveredSMS instead of the unanswered callAlert to +12015550123',
    ]);
    expect(within(second!).getByText('SMS: Skipped')).toBeInTheDocument();
    expect(
      within(second!).getByText('This number replied STOP: reply START to get texts again.'),
    ).toBeInTheDocument();
    expect(within(second!).getByText('Email instead of the undelivered SMS')).toBeInTheDocument();
  });

  it('filters by monitor and state through the query', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    const user = userEvent.setup();
    renderAt('/app/alerts');
    await screen.findByRole('table');
    await user.click(screen.getByLabelText('Monitor', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Checkout' }));
    await waitFor(() =>
      expect(getAlerts).toHaveBeenLastCalledWith(
        { page: 1, pageSize: 20, monitorId: checkout.monitorId },
        expect.any(AbortSignal),
        false,
      ),
    );
    await user.click(screen.getByLabelText('State', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Acknowledged' }));
    await waitFor(() =>
      expect(getAlerts).toHaveBeenLastCalledWith(
        { page: 1, pageSize: 20, monitorId: checkout.monitorId, state: 'acknowledged' },
        expect.any(AbortSignal),
        false,
      ),
    );
    expect(screen.getByTestId('where')).toHaveTextContent(
      `/alerts?monitorId=${checkout.monitorId}&state=acknowledged`,
    );
  });

  it('reads the filters and page from the address', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page([], 0));
    renderAt(`/app/alerts?monitorId=${checkout.monitorId}&state=open&page=3`);
    expect(await screen.findByText('No alerts match')).toBeInTheDocument();
    expect(getAlerts).toHaveBeenCalledWith(
      { page: 3, pageSize: 20, monitorId: checkout.monitorId, state: 'open' },
      expect.any(AbortSignal),
      false,
    );
  });

  it('acknowledges an open alert and shows its new state', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    vi.mocked(acknowledgeAlert).mockResolvedValue(
      ok({ ...open, state: 'acknowledged', acknowledgedAt: '2026-03-10T11:10:00.000Z' }),
    );
    const user = userEvent.setup();
    renderAt('/app/alerts');
    await user.click(await screen.findByRole('button', { name: 'Acknowledge Error status on Storefront' }));
    expect(acknowledgeAlert).toHaveBeenCalledWith(open.incidentId);
    const [, first] = within(screen.getByRole('table')).getAllByRole('row');
    await waitFor(() => expect(within(stateOf(first!)).getByText('Acknowledged')).toBeInTheDocument());
    expect(within(first!).queryByRole('button', { name: /Acknowledge/ })).not.toBeInTheDocument();
  });

  it('resolves an alert by hand with a note, and says how it ended', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    vi.mocked(resolveAlert).mockResolvedValue(
      ok({
        ...open,
        state: 'resolved',
        resolvedAt: '2026-03-10T11:30:00.000Z',
        resolvedBy: 'person',
        resolutionNote: 'Host restarted the server.',
      }),
    );
    const user = userEvent.setup();
    renderAt('/app/alerts');
    // A resolved alert offers nothing more to do.
    expect(screen.queryByRole('button', { name: 'Resolve Timeout on Checkout' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Resolve Error status on Storefront' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve this alert' });
    expect(dialog).toHaveTextContent('no more reminders and no recovery notice');
    await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Host restarted the server.');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve alert' }));
    expect(resolveAlert).toHaveBeenCalledWith(open.incidentId, 'Host restarted the server.');
    const [, first] = within(screen.getByRole('table')).getAllByRole('row');
    await waitFor(() => expect(within(stateOf(first!)).getByText('Resolved')).toBeInTheDocument());
    expect(first).toHaveTextContent('Resolved by hand: Host restarted the server.');
    expect(within(first!).queryByRole('button', { name: /Resolve|Acknowledge/ })).not.toBeInTheDocument();
  });

  it('on a phone shows each alert as a card, Acknowledge before the times and deliveries', async () => {
    (window as unknown as { happyDOM: { setViewport(size: object): void } }).happyDOM.setViewport({
      width: 390,
      height: 844,
    });
    vi.mocked(getAlerts).mockResolvedValue(page());
    vi.mocked(acknowledgeAlert).mockResolvedValue(
      ok({ ...open, state: 'acknowledged', acknowledgedAt: '2026-03-10T11:10:00.000Z' }),
    );
    const user = userEvent.setup();
    renderAt('/app/alerts');
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [first, second] = Array.from(list.children) as HTMLElement[];
    expect(first).toHaveTextContent(/^Storefront.*Error status.*Open.*Acknowledge.*Opened.*Email: Sent/);
    expect(second).toHaveTextContent(/^Checkout.*Timeout.*Resolved/);
    await user.click(within(first!).getByRole('button', { name: 'Acknowledge Error status on Storefront' }));
    await waitFor(() =>
      expect(within(first!).queryByRole('button', { name: /Acknowledge/ })).not.toBeInTheDocument(),
    );
    expect(first).toHaveTextContent(/^Storefront.*Error status.*Acknowledged/);
  });

  it('confirms an acknowledgement made from the email link, and can dismiss it', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    const user = userEvent.setup();
    renderAt(`/app/alerts?acknowledged=${open.incidentId}`);
    expect(await screen.findByText('Alert acknowledged')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Alert acknowledged')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/alerts$/);
  });

  it('explains an acknowledge link that did not work', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page());
    renderAt('/app/alerts?ackError=expired');
    expect(await screen.findByText('The alert was not acknowledged')).toBeInTheDocument();
    expect(screen.getByText(/That acknowledge link has expired/)).toBeInTheDocument();
  });

  it('says plainly when there are no alerts yet', async () => {
    vi.mocked(getAlerts).mockResolvedValue(page([], 0));
    renderAt('/app/alerts');
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    expectNoPlaceholderWords(document.body.textContent);
  });
});
