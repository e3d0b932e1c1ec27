import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { Alert, IncidentTimeline, TimelineEvent } from '@vigil/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTimeSeconds } from '../../../lib/format-time.ts';
import { expectNoPlaceholderWords } from '../../../test/no-placeholders.ts';
import { anAlert, failed, ok } from '../../../test/monitor-fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { getAlerts } from '../api/get-alerts.ts';
import { getIncidentTimeline } from '../api/get-incident-timeline.ts';
import { AlertList } from './alert-list.tsx';

vi.mock('../api/get-alerts.ts', () => ({ getAlerts: vi.fn() }));
vi.mock('../api/acknowledge-alert.ts', () => ({ acknowledgeAlert: vi.fn() }));
vi.mock('../api/resolve-alert.ts', () => ({ resolveAlert: vi.fn() }));
vi.mock('../api/get-incident-timeline.ts', () => ({ getIncidentTimeline: vi.fn() }));

const phone = '+12015550123';
const at = (seconds: number) =>
  new Date(Date.parse('2026-03-10T11:00:00.000Z') + seconds * 1000).toISOString();
const email: Extract<TimelineEvent, { kind: 'delivery' }> = {
  kind: 'delivery',
  at: at(2),
  event: 'opened',
  channel: 'email',
  recipient: 'ana@shop.com',
  status: 'sent',
  attempts: 1,
  lastError: null,
  sentAt: at(2),
  fallbackFor: null,
  failedTries: [],
};

/** One of each kind, as the server orders them. */
const everyKind: TimelineEvent[] = [
  { kind: 'check-failed', at: at(-30), statusCode: 503, error: 'The page answered 503 Service Unavailable.' },
  { kind: 'more-failures', at: at(-30), until: at(-5), count: 12 },
  { kind: 'check-failed', at: at(0), statusCode: null, error: 'No answer within 10 seconds.' },
  { kind: 'opened', at: at(0), summary: 'No answer within 10 seconds.' },
  email,
  {
    ...email,
    channel: 'call',
    recipient: phone,
    status: 'acknowledged',
    at: at(5),
    sentAt: at(5),
  },
  {
    ...email,
    event: 'repeat-2',
    channel: 'sms',
    recipient: phone,
    status: 'failed',
    attempts: 2,
    lastError: 'Twilio refused the number.',
    at: at(1800),
    sentAt: null,
    failedTries: [{ at: at(1790), error: 'Twilio answered 503.' }],
  },
  { ...email, fallbackFor: 'call', event: 'repeat-2', at: at(1801), sentAt: at(1801) },
  { kind: 'acknowledged', at: at(1900), byCallTo: phone },
  { kind: 'resolved', at: at(3600), by: 'person', note: 'Host restarted the server.' },
];

const alert = anAlert({ state: 'resolved', resolvedAt: at(3600), resolvedBy: 'person' });
const timelineOf = (
  events: TimelineEvent[],
  overrides: Partial<IncidentTimeline> = {},
): IncidentTimeline => ({
  incidentId: alert.incidentId,
  state: 'resolved',
  events,
  checksKeptFrom: null,
  ...overrides,
});

function renderList(list: Alert[] = [alert]) {
  vi.mocked(getAlerts).mockResolvedValue(ok({ list, total: list.length, page: 1, pageSize: 20 }));
  return renderWithProviders(
    <AlertList query={{ page: 1, pageSize: 20 }} empty={{ title: 'No alerts yet', text: 'None.' }} />,
  );
}

const toggle = (name = 'Timeline of Error status on Storefront') => screen.findByRole('button', { name });
const timelineList = () => screen.findByRole('list', { name: 'Timeline of Error status on Storefront' });
/** The timeline's entries as one line of text each. */
const entries = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);

beforeEach(() => {
  notifications.clean();
  vi.mocked(getAlerts).mockReset();
  vi.mocked(getIncidentTimeline).mockReset();
});

describe('incident timeline', () => {
  it('opens and closes; loads only when opened, showing that it loads', async () => {
    let answer: (value: Awaited<ReturnType<typeof getIncidentTimeline>>) => void = () => {};
    vi.mocked(getIncidentTimeline).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    renderList();
    const button = await toggle();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveTextContent('Timeline');
    expect(getIncidentTimeline).not.toHaveBeenCalled();

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(getIncidentTimeline).toHaveBeenCalledWith(alert.incidentId, expect.any(AbortSignal), false);
    const region = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(within(region).getByLabelText('Loading the timeline')).toHaveAttribute('aria-busy', 'true');

    answer(ok(timelineOf(everyKind.slice(3, 5))));
    expect(entries(await timelineList())).toEqual([
      `Incident opened${formatDateTimeSeconds(at(0))}No answer within 10 seconds.`,
      `Alert by Email to ana@shop.com: Sent${formatDateTimeSeconds(at(2))}`,
    ]);

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: /^Timeline of/ })).not.toBeInTheDocument();
  });

  it('says when the timeline could not be loaded, and tries again', async () => {
    vi.mocked(getIncidentTimeline)
      .mockResolvedValueOnce(failed())
      .mockResolvedValueOnce(ok(timelineOf(everyKind.slice(3, 4))));
    const user = userEvent.setup();
    renderList();
    await user.click(await toggle());
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent('The timeline could not be loaded');
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(entries(await timelineList())).toEqual([
      `Incident opened${formatDateTimeSeconds(at(0))}No answer within 10 seconds.`,
    ]);
    expect(getIncidentTimeline).toHaveBeenCalledTimes(2);
  });

  it('tells each kind of moment in words, with its time', async () => {
    vi.mocked(getIncidentTimeline).mockResolvedValue(ok(timelineOf(everyKind)));
    const user = userEvent.setup();
    renderList();
    await user.click(await toggle());
    const list = await timelineList();
    const t = formatDateTimeSeconds;
    expect(entries(list)).toEqual([
      `Check failed (HTTP 503)${t(at(-30))}The page answered 503 Service Unavailable.`,
      `… 12 more failed checksBetween ${t(at(-30))} and ${t(at(-5))}`,
      `Check failed${t(at(0))}No answer within 10 seconds.`,
      `Incident opened${t(at(0))}No answer within 10 seconds.`,
      `Alert by Email to ana@shop.com: Sent${t(at(2))}`,
      `Alert by Call to ${phone}: Answered, acknowledged${t(at(5))}`,
      `Repeat alert 2 by SMS to ${phone}: Failed${t(at(1800))}Twilio refused the number.` +
        `Try at ${t(at(1790))} did not get through: Twilio answered 503.`,
      `Repeat alert 2 by Email to ana@shop.com: Sent${t(at(1801))}Email instead of the unanswered call`,
      `Acknowledged: no more repeat alerts${t(at(1900))}By pressing 1 on the call to ${phone}`,
      `Resolved by hand${t(at(3600))}Note: Host restarted the server.`,
    ]);
    expect(within(list).getAllByRole('listitem')[0]!.querySelector('time')).toHaveAttribute(
      'datetime',
      at(-30),
    );
    expectNoPlaceholderWords(list.textContent);
  });

  it('ends with how the incident stands or how it ended, and says when older checks are gone', async () => {
    const cases: [Partial<IncidentTimeline>, TimelineEvent[], string][] = [
      [{ state: 'open' }, [], 'Still open'],
      [
        { state: 'acknowledged' },
        [{ kind: 'acknowledged', at: at(60), byCallTo: null }],
        'Acknowledged, still failing',
      ],
      [
        {},
        [{ kind: 'resolved', at: at(90), by: 'check', note: null }],
        `Recovered: a check passed${formatDateTimeSeconds(at(90))}`,
      ],
      [
        {},
        [{ kind: 'resolved', at: at(90), by: 'pause', note: null }],
        `Ended when the monitor was paused${formatDateTimeSeconds(at(90))}`,
      ],
    ];
    const user = userEvent.setup();
    for (const [overrides, events, last] of cases) {
      vi.mocked(getIncidentTimeline).mockResolvedValue(
        ok(timelineOf([everyKind[3]!, ...events], { checksKeptFrom: at(-60), ...overrides })),
      );
      const { unmount } = renderList();
      await user.click(await toggle());
      const list = await timelineList();
      expect(entries(list).at(-1)).toBe(last);
      if (overrides.state === 'acknowledged') {
        expect(entries(list).at(-2)).toBe(
          `Acknowledged: no more repeat alerts${formatDateTimeSeconds(at(60))}`,
        );
      }
      expect(
        screen.getByText(`Checks from before ${formatDateTimeSeconds(at(-60))} are no longer kept`, {
          exact: false,
        }),
      ).toBeInTheDocument();
      unmount();
    }
  });

  it('on a phone opens inside the alert’s card', async () => {
    (window as unknown as { happyDOM: { setViewport(size: object): void } }).happyDOM.setViewport({
      width: 390,
      height: 844,
    });
    vi.mocked(getIncidentTimeline).mockResolvedValue(ok(timelineOf(everyKind)));
    const user = userEvent.setup();
    renderList();
    const cards = await screen.findByRole('list', { name: 'Alerts' });
    const card = within(cards).getAllByRole('listitem')[0]!;
    await user.click(within(card).getByRole('button', { name: 'Timeline of Error status on Storefront' }));
    await waitFor(() =>
      expect(
        within(card).getByRole('list', { name: 'Timeline of Error status on Storefront' }),
      ).toBeInTheDocument(),
    );
    expect(within(card).getByText('Note: Host restarted the server.')).toBeInTheDocument();
  });
});
