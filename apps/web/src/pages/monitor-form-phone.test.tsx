import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PHONE_CONSENT_TEXT, PHONE_NUMBER_MESSAGE } from '@vigil/contracts';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { answerMonitorFormCalls, renderMonitorFormAt, signInOn } from '../test/monitor-form-pages.tsx';
import { aMonitor, failed, ok } from '../test/monitor-fixtures.ts';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { createMonitor } from '../features/monitors/api/create-monitor.ts';
import { updateMonitor } from '../features/monitors/api/update-monitor.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { getVerifiedContacts } from '../features/monitors/api/get-verified-contacts.ts';
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

type User = ReturnType<typeof userEvent.setup>;

const created = aMonitor({ monitorId: '33333333-3333-4333-8333-333333333333', name: 'Home page' });
const verifiedPhone = '+12015550123';

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
    { channel: 'sms', address: verifiedPhone, verifiedAt: '2026-01-02T00:00:00Z' },
  ]);
  vi.mocked(createMonitor).mockResolvedValue(ok(created));
  signInOn('Pro');
});

/** Pastes rather than types: every keystroke re-renders the whole form, which is slow in happy-dom. */
async function enter(user: User, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

async function fillBasics(user: User) {
  await enter(user, await screen.findByRole('textbox', { name: /^Name/ }), 'Home page');
  await enter(user, screen.getByRole('textbox', { name: /^Page address/ }), 'https://shop.example.com');
}

/** The SMS or call block, ticked. */
async function tick(user: User, name: 'SMS' | 'Phone call') {
  const block = await screen.findByRole('group', { name });
  await user.click(within(block).getByRole('checkbox', { name: new RegExp(`^${name}`) }));
  return block;
}

async function chooseCountry(user: User, block: HTMLElement, option: string) {
  await user.click(within(block).getByRole('combobox', { name: 'Country' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('phone channels on a plan that has them', () => {
  it('offers the nine countries by name and code, none chosen, and sends the number as E.164', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const sms = await tick(user, 'SMS');
    const country = within(sms).getByRole('combobox', { name: 'Country' });
    expect(country).toHaveValue('');
    await user.click(country);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'United States (+1)',
      'United Kingdom (+44)',
      'France (+33)',
      'Mexico (+52)',
      'Brazil (+55)',
      'Italy (+39)',
      'Germany (+49)',
      'Canada (+1)',
      'Spain (+34)',
    ]);
    await user.click(screen.getByRole('option', { name: 'United States (+1)' }));
    await enter(user, within(sms).getByRole('textbox', { name: 'Phone number' }), '(201) 555-0123');
    await user.click(within(sms).getByRole('checkbox', { name: PHONE_CONSENT_TEXT }));
    await enter(user, within(sms).getByRole('textbox', { name: 'Contact name' }), 'Ana');
    expect(within(sms).getByText('Verified')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0]).toMatchObject({
      languageCode: 'en-US',
      smsSettings: { checked: true, name: 'Ana', isAgree: true, phone: verifiedPhone },
      callSettings: { checked: false },
    });
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('refuses a number of a country outside the nine, with the contracts message', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const call = await tick(user, 'Phone call');
    await enter(user, within(call).getByRole('textbox', { name: 'Phone number' }), '+81 3 1234 5678');
    await user.click(within(call).getByRole('checkbox', { name: PHONE_CONSENT_TEXT }));
    expect(within(call).queryByRole('button', { name: 'Send code by SMS' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await within(call).findByText(PHONE_NUMBER_MESSAGE)).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('refuses a ticked SMS without a number or consent (the spec rule), saying what is missing', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const sms = await tick(user, 'SMS');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await within(sms).findByText('Enter the number to alert.')).toBeInTheDocument();
    expect(within(sms).getByText('Tick the consent box to receive these alerts.')).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('verifies a number with a code sent by SMS, in the chosen language, for both channels', async () => {
    vi.mocked(sendCode).mockResolvedValue(
      ok({
        channel: 'sms',
        address: '+447400123456',
        verified: false,
        message: 'We texted a code to +447400123456.',
      }),
    );
    vi.mocked(verifyCode).mockResolvedValue(
      ok({ channel: 'sms', address: '+447400123456', verified: true, message: 'Verified.' }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    await user.click(screen.getByRole('combobox', { name: 'Language of calls and texts' }));
    await user.click(await screen.findByRole('option', { name: 'German' }));
    const sms = await tick(user, 'SMS');
    await chooseCountry(user, sms, 'United Kingdom (+44)');
    await enter(user, within(sms).getByRole('textbox', { name: 'Phone number' }), '07400 123456');
    const call = await tick(user, 'Phone call');
    await chooseCountry(user, call, 'United Kingdom (+44)');
    await enter(user, within(call).getByRole('textbox', { name: 'Phone number' }), '7400123456');

    await user.click(within(sms).getByRole('button', { name: 'Send code by SMS' }));
    expect(sendCode).toHaveBeenCalledWith({ channel: 'sms', phone: '+447400123456', languageCode: 'de-DE' });
    expect(await within(sms).findByText('We texted a code to +447400123456.')).toBeInTheDocument();
    await user.click(within(sms).getByRole('button', { name: 'Verify' }));
    expect(await within(sms).findByText('The code has 6 digits.')).toBeInTheDocument();
    expect(verifyCode).not.toHaveBeenCalled();
    await enter(user, within(sms).getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(within(sms).getByRole('button', { name: 'Verify' }));
    expect(verifyCode).toHaveBeenCalledWith({ channel: 'sms', phone: '+447400123456', code: '123456' });
    expect(await within(sms).findByText('Verified')).toBeInTheDocument();
    // The same number in the call block needs no second code.
    expect(within(call).getByText('Verified')).toBeInTheDocument();
    expect(within(call).queryByRole('button', { name: 'Call me with a code' })).not.toBeInTheDocument();
  });

  it('verifies a number with a code read out in a call', async () => {
    vi.mocked(sendCode).mockResolvedValue(
      ok({
        channel: 'call',
        address: '+33612345678',
        verified: false,
        message: 'We are calling +33612345678.',
      }),
    );
    vi.mocked(verifyCode).mockResolvedValue(
      ok({ channel: 'call', address: '+33612345678', verified: true, message: 'Verified.' }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const call = await tick(user, 'Phone call');
    await enter(user, within(call).getByRole('textbox', { name: 'Phone number' }), '+33 6 12 34 56 78');
    await user.click(within(call).getByRole('button', { name: 'Call me with a code' }));
    expect(sendCode).toHaveBeenCalledWith({ channel: 'call', phone: '+33612345678', languageCode: 'en-US' });
    await within(call).findByText('We are calling +33612345678.');
    await enter(user, within(call).getByRole('textbox', { name: '6-digit code' }), '654321');
    await user.click(within(call).getByRole('button', { name: 'Verify' }));
    expect(verifyCode).toHaveBeenCalledWith({ channel: 'call', phone: '+33612345678', code: '654321' });
    expect(await within(call).findByText('Verified')).toBeInTheDocument();
  });

  it("shows the server's message beside the buttons when too many codes were sent, or the code is wrong", async () => {
    vi.mocked(sendCode)
      .mockResolvedValueOnce(failed(429, 'Too many codes for this number: try again in an hour.'))
      .mockResolvedValueOnce(
        ok({ channel: 'call', address: '+12025550123', verified: false, message: 'We are calling.' }),
      );
    vi.mocked(verifyCode).mockResolvedValue(
      failed(400, 'That code is not right. Check it, or send a new one.'),
    );
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    const sms = await tick(user, 'SMS');
    await chooseCountry(user, sms, 'United States (+1)');
    await enter(user, within(sms).getByRole('textbox', { name: 'Phone number' }), '202 555 0123');
    await user.click(within(sms).getByRole('button', { name: 'Send code by SMS' }));
    expect(await within(sms).findByRole('alert')).toHaveTextContent(
      'Too many codes for this number: try again in an hour.',
    );
    expect(within(sms).queryByRole('textbox', { name: '6-digit code' })).not.toBeInTheDocument();
    await user.click(within(sms).getByRole('button', { name: 'Call me with a code' }));
    await enter(user, await within(sms).findByRole('textbox', { name: '6-digit code' }), '000000');
    await user.click(within(sms).getByRole('button', { name: 'Verify' }));
    expect(
      await within(sms).findByText('That code is not right. Check it, or send a new one.'),
    ).toBeInTheDocument();
    expect(within(sms).queryByText('Verified')).not.toBeInTheDocument();
  });

  it('asks to verify a ticked number before saving', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const sms = await tick(user, 'SMS');
    await chooseCountry(user, sms, 'Germany (+49)');
    await enter(user, within(sms).getByRole('textbox', { name: 'Phone number' }), '0151 23456789');
    await user.click(within(sms).getByRole('checkbox', { name: PHONE_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(
      await within(sms).findByText('Verify +4915123456789 first: get a code by SMS or by call and enter it.'),
    ).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it("shows the server's refusals on the phone blocks", async () => {
    vi.mocked(createMonitor).mockResolvedValue({
      ok: false,
      status: 400,
      data: undefined,
      code: 'INVALID',
      message: 'Check the highlighted fields.',
      details: [
        { path: 'smsSettings.phone', message: PHONE_NUMBER_MESSAGE },
        { path: 'callSettings', message: 'Calls need a number that can take them.' },
      ],
    });
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await fillBasics(user);
    const sms = await tick(user, 'SMS');
    await chooseCountry(user, sms, 'United States (+1)');
    await enter(user, within(sms).getByRole('textbox', { name: 'Phone number' }), '2015550123');
    await user.click(within(sms).getByRole('checkbox', { name: PHONE_CONSENT_TEXT }));
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await within(sms).findByText(PHONE_NUMBER_MESSAGE)).toBeInTheDocument();
    const call = screen.getByRole('group', { name: 'Phone call' });
    expect(within(call).getByText('Calls need a number that can take them.')).toBeInTheDocument();
  });
});

describe('phone channels and the plan', () => {
  it('holds the call block on a plan without calls, with the reason and a link to the plans', async () => {
    signInOn('Starter');
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    const call = await screen.findByRole('group', { name: 'Phone call' });
    expect(within(call).getByRole('checkbox', { name: /^Phone call/ })).toBeDisabled();
    expect(call).toHaveAccessibleDescription(/Calls come with Pro and Business\./);
    expect(within(call).getByRole('link', { name: 'See plans with calls' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
    expect(within(call).getByRole('textbox', { name: 'Phone number' })).toBeDisabled();
    expect(within(call).getByRole('checkbox', { name: PHONE_CONSENT_TEXT })).toBeDisabled();
    // SMS is part of Starter.
    const sms = await tick(user, 'SMS');
    expect(within(sms).getByRole('textbox', { name: 'Phone number' })).toBeEnabled();
    expect(within(sms).getByText(/Your Starter plan includes 100 SMS a month\./)).toBeInTheDocument();
  });

  it('keeps a call channel ticked on an earlier plan editable, so it can be unticked', async () => {
    signInOn('Starter');
    const monitor = aMonitor({
      callSettings: { checked: true, name: 'Ana', isAgree: true, phone: '+33612345678' },
      smsSettings: { checked: true, name: 'Ana', isAgree: true, phone: '+33612345678' },
    });
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(monitor));
    vi.mocked(updateMonitor).mockResolvedValue(ok(monitor));
    vi.mocked(getVerifiedContacts).mockResolvedValue(
      ok({
        list: [
          { channel: 'email', address: 'ana@shop.com', verifiedAt: '2026-01-01T00:00:00Z' },
          { channel: 'call', address: '+33612345678', verifiedAt: '2026-01-02T00:00:00Z' },
        ],
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt(`/app/monitor_edit?monitorId=${monitor.monitorId}`);
    const sms = await screen.findByRole('group', { name: 'SMS' });
    expect(within(sms).getByRole('combobox', { name: 'Country' })).toHaveValue('France (+33)');
    expect(within(sms).getByRole('textbox', { name: 'Phone number' })).toHaveValue('612345678');
    const call = screen.getByRole('group', { name: 'Phone call' });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await within(call).findByText(
        'Calls come with Pro and Business. Untick it to save, or choose a plan that includes it.',
      ),
    ).toBeInTheDocument();
    expect(updateMonitor).not.toHaveBeenCalled();
    await user.click(within(call).getByRole('checkbox', { name: /^Phone call/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updateMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(updateMonitor).mock.calls[0]![0]).toMatchObject({
      callSettings: { checked: false, phone: '+33612345678' },
    });
  });
});
