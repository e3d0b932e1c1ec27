import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { answerMonitorFormCalls, renderMonitorFormAt, signInOn } from '../test/monitor-form-pages.tsx';
import { aMonitor, catalogue, ok } from '../test/monitor-fixtures.ts';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { createMonitor } from '../features/monitors/api/create-monitor.ts';
import { updateMonitor } from '../features/monitors/api/update-monitor.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { sendCode } from '../features/monitors/api/send-code.ts';
import { verifyCode } from '../features/monitors/api/verify-code.ts';

vi.mock('../features/monitors/api/get-monitor-service.ts', () => ({ getMonitorService: vi.fn() }));
vi.mock('../features/plans/api/get-plans.ts', () => ({ getPlans: vi.fn() }));
vi.mock('../features/monitors/api/create-monitor.ts', () => ({ createMonitor: vi.fn() }));
vi.mock('../features/monitors/api/update-monitor.ts', () => ({ updateMonitor: vi.fn() }));
vi.mock('../features/monitors/api/get-monitor-info.ts', () => ({ getMonitorInfo: vi.fn() }));
vi.mock('../features/monitors/api/get-verified-contacts.ts', () => ({ getVerifiedContacts: vi.fn() }));
vi.mock('../features/monitors/api/send-code.ts', () => ({ sendCode: vi.fn() }));
vi.mock('../features/monitors/api/verify-code.ts', () => ({ verifyCode: vi.fn() }));

// The whole form renders in happy-dom for each step; under a full parallel run that can pass 5 s.
vi.setConfig({ testTimeout: 20_000 });

const created = aMonitor({ monitorId: '33333333-3333-4333-8333-333333333333', name: 'Home page' });

const renderAt = renderMonitorFormAt;

beforeEach(() => {
  for (const fn of [
    getMonitorService,
    getPlans,
    createMonitor,
    updateMonitor,
    getMonitorInfo,
    sendCode,
    verifyCode,
  ]) {
    vi.mocked(fn).mockReset();
  }
  answerMonitorFormCalls([
    { channel: 'email', address: 'owner@shop.com', verifiedAt: '2026-01-01T00:00:00Z' },
    { channel: 'email', address: 'Ana@shop.com', verifiedAt: '2026-01-02T00:00:00Z' },
  ]);
  signInOn('Free');
});

/** Pastes rather than types: every keystroke re-renders the whole form, which is slow in happy-dom. */
async function enter(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

async function fillBasics(user: ReturnType<typeof userEvent.setup>) {
  await enter(user, await screen.findByRole('textbox', { name: /^Name/ }), 'Home page');
  await enter(user, screen.getByRole('textbox', { name: /^Page address/ }), 'https://shop.example.com');
}

describe('/monitor_create', () => {
  it('offers the four services as cards', async () => {
    renderAt('/app/monitor_create');
    const website = await screen.findByRole('radio', { name: /Website/ });
    expect(website).toHaveAttribute('aria-checked', 'true');
    for (const name of [/Shopify shop/, /Google Ads/, /Meta ads/]) {
      expect(screen.getByRole('radio', { name })).toBeEnabled();
    }
  });

  it('leaves a service the server marks unavailable off the page', async () => {
    vi.mocked(getMonitorService).mockResolvedValue(
      ok({
        ...catalogue,
        list: catalogue.list.map((entry) =>
          entry.service === 'facebook_ads'
            ? { ...entry, available: false, unavailableReason: 'Meta is not configured.' }
            : entry,
        ),
      }),
    );
    renderAt('/app/monitor_create');
    expect(await screen.findByRole('radio', { name: /Google Ads/ })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Meta ads/ })).not.toBeInTheDocument();
  });

  it('creates the monitor from the form and opens its detail', async () => {
    vi.mocked(createMonitor).mockResolvedValue(ok(created));
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0]).toMatchObject({
      name: 'Home page',
      service: 'website',
      target: { url: 'https://shop.example.com' },
      intervalSeconds: 300,
      languageCode: 'en-US',
      emailSettings: { checked: true, email: 'owner@shop.com' },
      smsSettings: { checked: false },
      callSettings: { checked: false },
    });
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent(`/monitor?monitorId=${created.monitorId}`),
    );
  });

  it('needs a keyword once the keyword check is on', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    await user.click(screen.getByRole('switch', { name: /Keyword/ }));
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(
      await screen.findByText('Enter the keyword to look for, or turn the keyword check off.'),
    ).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
    await enter(user, screen.getByRole('textbox', { name: /^Keyword/ }), 'Add to cart');
    vi.mocked(createMonitor).mockResolvedValue(ok(created));
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0].conditions).toHaveProperty('keyword', {
      enabled: true,
      keyword: 'Add to cart',
      mode: 'missing',
    });
  });

  it('refuses an email the spec rule rejects', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const email = screen.getByRole('textbox', { name: /^Email/ });
    await user.clear(email);
    await enter(user, email, 'owner@shop.c');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByText('Enter an email like name@shop.com.')).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('offers only intervals the plan allows, naming its limit', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    const interval = await screen.findByLabelText('Check every', { selector: 'input' });
    expect(interval).toHaveValue('Every 5 minutes');
    expect(screen.getByText(/Your Free plan checks at most every 5 minutes\./)).toBeInTheDocument();
    await user.click(interval);
    expect(await screen.findByRole('option', { name: 'Every 1 minute (higher plans)' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    expect(screen.getByRole('option', { name: 'Every 10 minutes' })).not.toHaveAttribute(
      'data-combobox-disabled',
    );
  });

  it('verifies a new email with a code and shows it as verified', async () => {
    vi.mocked(sendCode).mockResolvedValue(
      ok({
        channel: 'email',
        address: 'ops@shop.com',
        verified: false,
        message: 'We sent a code to ops@shop.com.',
      }),
    );
    vi.mocked(verifyCode).mockResolvedValue(
      ok({ channel: 'email', address: 'ops@shop.com', verified: true, message: 'Verified.' }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(screen.getByText('Verified')).toBeInTheDocument());
    await user.clear(email);
    await enter(user, email, 'ops@shop.com');
    expect(screen.queryByText('Verified')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(sendCode).toHaveBeenCalledWith({ channel: 'email', email: 'ops@shop.com' });
    expect(await screen.findByText('We sent a code to ops@shop.com.')).toBeInTheDocument();
    await enter(user, screen.getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(verifyCode).toHaveBeenCalledWith({ channel: 'email', email: 'ops@shop.com', code: '123456' });
    expect(await screen.findByText('Verified')).toBeInTheDocument();
    vi.mocked(createMonitor).mockResolvedValue(ok(created));
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0].emailSettings.email).toBe('ops@shop.com');
  });

  it('asks to verify an address before saving a monitor that alerts it', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const email = screen.getByRole('textbox', { name: /^Email/ });
    await user.clear(email);
    await enter(user, email, 'new@shop.com');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(
      await screen.findByText('Verify new@shop.com first: send a code and enter it.'),
    ).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('holds the SMS and call channels the Free plan lacks, saying which plans have them', async () => {
    renderAt('/app/monitor_create');
    await screen.findByRole('textbox', { name: /^Name/ });
    const sms = screen.getByRole('group', { name: 'SMS' });
    const call = screen.getByRole('group', { name: 'Phone call' });
    expect(within(sms).getByRole('checkbox', { name: /^SMS/ })).toBeDisabled();
    expect(within(sms).getByText(/SMS alerts come with Starter, Pro and Business\./)).toBeInTheDocument();
    expect(within(sms).getByRole('link', { name: 'See plans with SMS' })).toBeInTheDocument();
    expect(within(call).getByRole('checkbox', { name: /^Phone call/ })).toBeDisabled();
    expect(within(call).getByText(/Calls come with Pro and Business\./)).toBeInTheDocument();
    expect(within(call).getByRole('link', { name: 'See plans with calls' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
    expect(within(call).getByRole('textbox', { name: /Phone number/ })).toBeDisabled();
    expectNoPlaceholderWords(document.body.textContent);
  });
});

describe('/monitor_edit', () => {
  it('loads the monitor and saves it with its id', async () => {
    const monitor = aMonitor({ name: 'Storefront', intervalSeconds: 600 });
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(monitor));
    vi.mocked(updateMonitor).mockResolvedValue(ok({ ...monitor, name: 'Storefront EU' }));
    const user = userEvent.setup({ delay: null });
    renderAt(`/app/monitor_edit?monitorId=${monitor.monitorId}`);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Storefront');
    expect(screen.getByLabelText('Check every', { selector: 'input' })).toHaveValue('Every 10 minutes');
    await enter(user, name, ' EU');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updateMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(updateMonitor).mock.calls[0]![0]).toMatchObject({
      monitorId: monitor.monitorId,
      name: 'Storefront EU',
      intervalSeconds: 600,
      emailSettings: { checked: true, name: 'Ana', email: 'ana@shop.com' },
    });
    expect(await screen.findByTestId('where')).toHaveTextContent(`/monitor?monitorId=${monitor.monitorId}`);
  });

  it("shows the server's field errors on the fields", async () => {
    const monitor = aMonitor();
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(monitor));
    vi.mocked(updateMonitor).mockResolvedValue({
      ok: false,
      status: 400,
      data: undefined,
      code: 'INVALID',
      message: 'Check the highlighted fields.',
      details: [{ path: 'target.url', message: 'That address does not resolve.' }],
    });
    const user = userEvent.setup({ delay: null });
    renderAt(`/app/monitor_edit?monitorId=${monitor.monitorId}`);
    await user.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('That address does not resolve.')).toBeInTheDocument();
  });
});
