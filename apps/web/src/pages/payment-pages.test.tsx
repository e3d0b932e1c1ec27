import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { UserInfo } from '@vigil/contracts';
import { getUserInfo as getStoredUser, setUserInfo } from '../lib/session.ts';
import { failed, ok } from '../test/monitor-fixtures.ts';
import { NOW, ORDER_ID, anOrder } from '../test/plan-fixtures.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { createPlanOrder } from '../features/plans/api/create-plan-order.ts';
import { getPlanOrder } from '../features/plans/api/get-plan-order.ts';
import { getUserInfo } from '../features/user/api/get-user-info.ts';
import { readCheckoutRedirect, rememberCheckoutRedirect } from '../features/plans/checkout-redirect.ts';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import PaymentErrorPage from './payment-error-page.tsx';
import PaymentSuccessPage from './payment-success-page.tsx';

vi.mock('../features/plans/api/get-plan-order.ts', () => ({ getPlanOrder: vi.fn() }));
vi.mock('../features/plans/api/create-plan-order.ts', () => ({ createPlanOrder: vi.fn() }));
vi.mock('../features/user/api/get-user-info.ts', () => ({
  getUserInfo: vi.fn(),
  peekUserInfo: () => undefined,
}));

const PAID_UNTIL = NOW + 30 * 86_400;
const newUser: UserInfo = {
  email: 'owner@shop.com',
  industry: 'Pets',
  telPhone: null,
  contactEmail: 'owner@shop.com',
  plan: 'Free',
  planExpiresin: '0',
};
const onPro: UserInfo = { ...newUser, plan: 'Pro', planExpiresin: PAID_UNTIL };
const active = anOrder({ status: 'active', planExpiresin: PAID_UNTIL, checkoutUrl: null });
const binding = JSON.stringify({ auth: 'false', key: 'shop-42' });
const notFound = failed(404, 'There is no such order.');

function renderAt(url: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/payment-success" element={<PaymentSuccessPage />} />
      <Route path="/payment-error" element={<PaymentErrorPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

/** Lets the page's timers run `ms` further, with the answers they bring. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let assign: MockInstance<(url: string | URL) => void>;

beforeEach(() => {
  vi.mocked(getPlanOrder).mockReset();
  vi.mocked(createPlanOrder).mockReset();
  vi.mocked(getUserInfo).mockReset();
  vi.mocked(getUserInfo).mockResolvedValue(ok(onPro));
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
  setUserInfo(newUser);
});

afterEach(() => {
  assign.mockRestore();
  vi.useRealTimers();
});

describe('payment success page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });

  it('shows the wait while Stripe confirms, then the plan, and continues to the pending binding', async () => {
    rememberCheckoutRedirect(binding);
    vi.mocked(getPlanOrder)
      .mockResolvedValueOnce(ok(anOrder()))
      .mockResolvedValueOnce(ok(anOrder()))
      .mockResolvedValueOnce(ok(anOrder()))
      .mockResolvedValue(ok(active));
    renderAt(`/app/payment-success?order=${ORDER_ID}`);

    expect(await screen.findByRole('heading', { name: 'Confirming your payment' })).toBeInTheDocument();
    expect(screen.getByText('Confirming your payment with Stripe…')).toBeInTheDocument();
    expect(getPlanOrder).toHaveBeenCalledWith(ORDER_ID, expect.any(AbortSignal));
    await pass(1000);
    expect(screen.getByText(/Waiting for 1 second\./)).toBeInTheDocument();
    await pass(1000);
    expect(screen.getByText(/Waiting for 2 seconds\./)).toBeInTheDocument();
    expect(screen.queryByText(/Payment received/)).not.toBeInTheDocument();
    await pass(1000);

    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`Pro runs until ${formatPlanDate(PAID_UNTIL)}`))).toBeInTheDocument();
    expect(screen.getByText('Pro, billed monthly: $49.00')).toBeInTheDocument();
    expect(getPlanOrder).toHaveBeenCalledTimes(4);
    // The startup rules must see the new plan, or they would send the person back to /pricing.
    expect(getUserInfo).toHaveBeenCalledOnce();
    expect(getStoredUser()).toEqual(onPro);
    expect(await screen.findByText('Continuing in 5 s…')).toBeInTheDocument();

    await pass(5000);
    expect(screen.getByTestId('where')).toHaveTextContent(
      `/monitor_create?redirect=${encodeURIComponent(binding)}`,
    );
    expect(readCheckoutRedirect()).toBeNull();
    expect(getPlanOrder).toHaveBeenCalledTimes(4);
  });

  it('continues to the monitors at once with Continue when nothing is pending', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(ok(active));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(`/app/payment-success?order=${ORDER_ID}`);
    await screen.findByText('Continuing in 5 s…');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/monitor$/);
  });

  it('says honestly when Stripe has not confirmed after a minute, and keeps checking more slowly', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(ok(anOrder()));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(`/app/payment-success?order=${ORDER_ID}`);
    await screen.findByText('Confirming your payment with Stripe…');
    await pass(59_000);
    expect(screen.getByRole('heading', { name: 'Confirming your payment' })).toBeInTheDocument();
    await pass(1000);

    expect(
      screen.getByRole('heading', { name: 'Stripe has not confirmed your payment yet' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Nothing is charged twice/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to plans' })).toHaveAttribute('href', '/app/pricing');
    const calls = vi.mocked(getPlanOrder).mock.calls.length;
    expect(calls).toBeGreaterThanOrEqual(60);
    expect(calls).toBeLessThanOrEqual(62);

    // In the background: every 10 s now, not every second.
    await pass(9000);
    expect(getPlanOrder).toHaveBeenCalledTimes(calls);
    await pass(1000);
    expect(getPlanOrder).toHaveBeenCalledTimes(calls + 1);

    vi.mocked(getPlanOrder).mockResolvedValue(ok(active));
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(getPlanOrder).toHaveBeenCalledTimes(calls + 2);
    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeInTheDocument();
  });

  it('says there is no order to show without an order in the address', async () => {
    renderAt('/app/payment-success');
    expect(await screen.findByRole('heading', { name: 'There is no order to show' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/pricing');
    expect(screen.queryByText(/Payment received|Thank you/)).not.toBeInTheDocument();
    expect(getPlanOrder).not.toHaveBeenCalled();
  });

  it("says there is no order to show for an unknown order (another person's: 404)", async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(notFound);
    renderAt('/app/payment-success?order=ord_someone_else');
    expect(await screen.findByRole('heading', { name: 'There is no order to show' })).toBeInTheDocument();
    await pass(5000);
    expect(getPlanOrder).toHaveBeenCalledOnce();
  });

  it('shows a failed payment with its reason and a way to try again', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(
      ok(
        anOrder({
          status: 'failed',
          failure: { reason: 'expired', message: 'Checkout expired before the payment was made.' },
        }),
      ),
    );
    renderAt(`/app/payment-success?order=${ORDER_ID}`);
    expect(
      await screen.findByRole('heading', { name: 'The payment did not go through' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Checkout expired before the payment was made.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    await pass(3000);
    expect(getPlanOrder).toHaveBeenCalledOnce();
  });
});

describe('payment error page', () => {
  it('says the card was declined, with the reason, and tries again with a new Checkout for the same plan', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(
      ok(
        anOrder({
          period: 'year',
          amountCents: 49_000,
          failure: {
            reason: 'declined',
            message: 'Your card was declined. Your bank said the card has insufficient funds.',
          },
        }),
      ),
    );
    vi.mocked(createPlanOrder).mockResolvedValue(
      ok({ orderId: 'ord_2', url: 'https://checkout.stripe.com/c/pay/cs_test_2' }),
    );
    rememberCheckoutRedirect(binding);
    const user = userEvent.setup();
    renderAt(`/app/payment-error?order=${ORDER_ID}`);
    expect(
      await screen.findByRole('heading', { name: 'The payment did not go through' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Your card was declined. Your bank said the card has insufficient funds.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Pro, billed yearly: $490.00')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(createPlanOrder).toHaveBeenCalledExactlyOnceWith({ plan: 'Pro', period: 'year' });
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://checkout.stripe.com/c/pay/cs_test_2');
    // The binding still waits for after the payment.
    expect(readCheckoutRedirect()).toBe(binding);
  });

  it('says that leaving checkout charged nothing, and leads back to the plans', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(ok(anOrder()));
    renderAt(`/app/payment-error?order=${ORDER_ID}`);
    expect(await screen.findByRole('heading', { name: 'You left checkout' })).toBeInTheDocument();
    expect(screen.getByText('You left checkout before paying. Nothing was charged.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to plans' })).toHaveAttribute('href', '/app/pricing');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says when Checkout expired', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(
      ok(
        anOrder({
          status: 'failed',
          failure: { reason: 'expired', message: 'Checkout expired after 24 hours. Nothing was charged.' },
        }),
      ),
    );
    renderAt(`/app/payment-error?order=${ORDER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Checkout expired' })).toBeInTheDocument();
    expect(screen.getByText('Checkout expired after 24 hours. Nothing was charged.')).toBeInTheDocument();
  });

  it('says an order paid after all is active, and links on', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(ok(active));
    renderAt(`/app/payment-error?order=${ORDER_ID}`);
    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute(
      'href',
      `/app/payment-success?order=${ORDER_ID}`,
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('says there is no order to show for an unknown order', async () => {
    vi.mocked(getPlanOrder).mockResolvedValue(notFound);
    renderAt('/app/payment-error?order=nope');
    expect(await screen.findByRole('heading', { name: 'There is no order to show' })).toBeInTheDocument();
  });

  it('offers a retry when the order cannot be loaded', async () => {
    vi.mocked(getPlanOrder).mockResolvedValueOnce(failed()).mockResolvedValue(ok(anOrder()));
    const user = userEvent.setup();
    renderAt(`/app/payment-error?order=${ORDER_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'You left checkout' })).toBeInTheDocument();
    expect(createPlanOrder).not.toHaveBeenCalled();
  });
});
