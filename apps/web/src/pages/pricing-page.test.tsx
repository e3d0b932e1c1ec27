import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { UserInfo } from '@vigil/contracts';
import { createApiClient } from '../lib/api-client.ts';
import { getUserInfo as getStoredUser, setUserInfo } from '../lib/session.ts';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { failed, ok } from '../test/monitor-fixtures.ts';
import {
  NOW,
  aProSubscription,
  aSubscription,
  free,
  nothingYet,
  pro,
  starter,
  twoShops,
} from '../test/plan-fixtures.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { choosePlan } from '../features/plans/api/choose-plan.ts';
import { createPlanOrder } from '../features/plans/api/create-plan-order.ts';
import { getPlanCoverage } from '../features/plans/api/get-plan-coverage.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { getSubscription } from '../features/plans/api/get-subscription.ts';
import { openBillingPortal } from '../features/plans/api/open-billing-portal.ts';
import { readCheckoutRedirect } from '../features/plans/checkout-redirect.ts';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import PricingPage from './pricing-page.tsx';

vi.mock('../features/plans/api/get-plans.ts', () => ({ getPlans: vi.fn() }));
vi.mock('../features/plans/api/choose-plan.ts', () => ({ choosePlan: vi.fn() }));
vi.mock('../features/plans/api/create-plan-order.ts', () => ({ createPlanOrder: vi.fn() }));
vi.mock('../features/plans/api/get-plan-coverage.ts', () => ({ getPlanCoverage: vi.fn() }));
vi.mock('../features/plans/api/get-subscription.ts', () => ({ getSubscription: vi.fn() }));
vi.mock('../features/plans/api/open-billing-portal.ts', () => ({ openBillingPortal: vi.fn() }));

const onboarded: UserInfo = {
  email: 'owner@shop.com',
  industry: 'Pets',
  telPhone: null,
  contactEmail: 'owner@shop.com',
  plan: 'Free',
  planExpiresin: '0',
};
const binding = encodeURIComponent(JSON.stringify({ auth: 'false', key: 'shop-42' }));
const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_a1';
const PORTAL_URL = 'https://billing.stripe.com/p/session/test_b2';

/** The real api client, answering every request with `status` and `body`: its error toast shows. */
function serverAnswering(status: number, body: unknown) {
  const answer: typeof fetch = async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return createApiClient({ fetch: answer });
}

function renderAt(url: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/pricing" element={<PricingPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

let assign: MockInstance<(url: string | URL) => void>;

beforeEach(() => {
  for (const fn of [
    getPlans,
    choosePlan,
    createPlanOrder,
    getPlanCoverage,
    getSubscription,
    openBillingPortal,
  ]) {
    vi.mocked(fn).mockReset();
  }
  vi.mocked(getPlans).mockResolvedValue(ok({ list: [free, starter, pro] }));
  vi.mocked(getSubscription).mockResolvedValue(ok(aSubscription()));
  vi.mocked(getPlanCoverage).mockResolvedValue(ok(nothingYet));
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
  setUserInfo(onboarded);
});

afterEach(() => {
  assign.mockRestore();
});

describe('pricing page: plans', () => {
  it('shows each plan with its price and limits, and a paid plan can be chosen', async () => {
    renderAt('/app/pricing');
    const proCard = await screen.findByRole('region', { name: 'Pro' });
    expect(within(proCard).getByText('$49')).toBeInTheDocument();
    expect(within(proCard).getByText('/ month')).toBeInTheDocument();
    expect(within(proCard).getByText('1 minute')).toBeInTheDocument();
    expect(within(proCard).getByText('10')).toBeInTheDocument();
    expect(within(proCard).getByText('Email, SMS, Phone calls')).toBeInTheDocument();
    expect(within(proCard).getByText('100 calls a month')).toBeInTheDocument();
    expect(within(proCard).getByText('Phone calls that wake you up')).toBeInTheDocument();
    await waitFor(() => expect(within(proCard).getByRole('button', { name: 'Choose Pro' })).toBeEnabled());
    expect(screen.queryByText(/Opens with billing/)).not.toBeInTheDocument();
    // A new user has no plan yet, so there is no "Your plan" panel.
    expect(screen.queryByRole('region', { name: 'Your plan' })).not.toBeInTheDocument();
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('switches paid prices between monthly and yearly, with what a year saves', async () => {
    const user = userEvent.setup();
    renderAt('/app/pricing');
    const proCard = await screen.findByRole('region', { name: 'Pro' });
    expect(screen.getByRole('radiogroup', { name: 'Billing period' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(within(proCard).getByText('$490')).toBeInTheDocument();
    expect(within(proCard).getByText('per year')).toBeInTheDocument();
    expect(within(proCard).getByText('Save $98 compared with 12 monthly payments')).toBeInTheDocument();
    const starterCard = screen.getByRole('region', { name: 'Starter' });
    expect(within(starterCard).getByText('$190')).toBeInTheDocument();
    // Free has no yearly price.
    const freeCard = screen.getByRole('region', { name: 'Free' });
    expect(within(freeCard).getByText('$0')).toBeInTheDocument();
    expect(within(freeCard).queryByText('per year')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(within(proCard).getByText('$49')).toBeInTheDocument();
    expect(within(proCard).queryByText(/^Save/)).not.toBeInTheDocument();
  });

  it('buys a plan: creates the order for the chosen period, keeps redirect and goes to Stripe Checkout', async () => {
    vi.mocked(createPlanOrder).mockResolvedValue(ok({ orderId: 'ord_1', url: CHECKOUT_URL }));
    const user = userEvent.setup();
    renderAt(`/app/pricing?redirect=${binding}`);
    await user.click(await screen.findByRole('radio', { name: 'Yearly' }));
    const buy = screen.getByRole('button', { name: 'Choose Pro' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    expect(createPlanOrder).toHaveBeenCalledExactlyOnceWith({ plan: 'Pro', period: 'year' });
    expect(assign).toHaveBeenCalledExactlyOnceWith(CHECKOUT_URL);
    expect(readCheckoutRedirect()).toBe(decodeURIComponent(binding));
    expect(buy).toHaveAttribute('data-loading', 'true');
    expect(choosePlan).not.toHaveBeenCalled();
  });

  it("shows each plan's coverage once the person has accounts or monitors, in orange when it falls short", async () => {
    vi.mocked(getPlanCoverage).mockResolvedValue(ok(twoShops));
    renderAt('/app/pricing');
    const freeCard = await screen.findByRole('region', { name: 'Free' });
    const short = await within(freeCard).findByText(
      'Free covers 1 of your 2 shops and 3 of your 4 monitors.',
    );
    const warning = expect.stringContaining('color: var(--vigil-color-warning-text)');
    expect(short).toHaveAttribute('style', warning);
    const covered = within(screen.getByRole('region', { name: 'Pro' })).getByText(
      'Pro covers both of your shops and all 4 monitors.',
    );
    expect(covered).not.toHaveAttribute('style', warning);
  });

  it('says nothing about coverage when there is nothing to cover yet', async () => {
    renderAt('/app/pricing');
    await screen.findByRole('region', { name: 'Pro' });
    await waitFor(() => expect(getPlanCoverage).toHaveBeenCalled());
    expect(screen.queryByText(/covers everything/)).not.toBeInTheDocument();
  });

  it("refuses a second checkout with the server's message (409) and shows Manage billing instead", async () => {
    const conflict = serverAnswering(409, {
      code: 'CONFLICT',
      message: 'You already pay for Pro. Change plans in Manage billing.',
    });
    vi.mocked(createPlanOrder).mockImplementation((body) =>
      conflict.post('/monitor-bff/plan-order/create', body),
    );
    vi.mocked(getSubscription)
      .mockResolvedValueOnce(ok(aSubscription()))
      .mockResolvedValue(ok(aProSubscription()));
    const user = userEvent.setup();
    renderAt('/app/pricing');
    const starterCard = await screen.findByRole('region', { name: 'Starter' });
    const buy = within(starterCard).getByRole('button', { name: 'Choose Starter' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    expect(
      await screen.findByText('You already pay for Pro. Change plans in Manage billing.'),
    ).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(
      await within(starterCard).findByRole('button', { name: 'Switch in Manage billing' }),
    ).toBeInTheDocument();
    expect(getSubscription).toHaveBeenCalledTimes(2);
  });

  it('chooses Free, stores the user and continues to /monitor_create with a pending binding', async () => {
    const chosen = { ...onboarded, planExpiresin: NOW + 14 * 86_400 };
    vi.mocked(choosePlan).mockResolvedValue(ok(chosen));
    renderAt(`/app/pricing?redirect=${binding}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Free' }));
    expect(choosePlan).toHaveBeenCalledWith('Free');
    expect(await screen.findByTestId('where')).toHaveTextContent(`/monitor_create?redirect=${binding}`);
    expect(getStoredUser()).toEqual(chosen);
    expect(createPlanOrder).not.toHaveBeenCalled();
  });

  it('continues to /monitor without a binding', async () => {
    vi.mocked(getPlans).mockResolvedValue(ok({ list: [free] }));
    vi.mocked(choosePlan).mockResolvedValue(ok({ ...onboarded, planExpiresin: NOW + 100 }));
    renderAt('/app/pricing');
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Free' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/monitor$/);
  });

  it('shows no period switch when only Free is on sale', async () => {
    vi.mocked(getPlans).mockResolvedValue(ok({ list: [free] }));
    renderAt('/app/pricing');
    await screen.findByRole('region', { name: 'Free' });
    expect(screen.queryByRole('radiogroup', { name: 'Billing period' })).not.toBeInTheDocument();
  });

  it('says when the period has ended', async () => {
    setUserInfo({ ...onboarded, planExpiresin: NOW - 10 });
    renderAt(`/app/pricing?planExpiresin=${NOW - 10}`);
    expect(await screen.findByText('Your plan period has ended')).toBeInTheDocument();
  });

  it('offers a retry when the plans fail to load', async () => {
    vi.mocked(getPlans)
      .mockResolvedValueOnce(failed(0))
      .mockResolvedValue(ok({ list: [free] }));
    renderAt('/app/pricing');
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Choose Free' })).toBeInTheDocument();
  });
});

describe('pricing page: your plan', () => {
  it('a person paying for Pro sees it renew, and switches or manages it in Manage billing, never buys again', async () => {
    const subscription = aProSubscription();
    vi.mocked(getSubscription).mockResolvedValue(ok(subscription));
    vi.mocked(openBillingPortal).mockResolvedValue(ok({ url: PORTAL_URL }));
    setUserInfo({ ...onboarded, plan: 'Pro', planExpiresin: subscription.planExpiresin });
    const user = userEvent.setup();
    renderAt('/app/pricing');

    const panel = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(panel).getByText('Pro')).toBeInTheDocument();
    expect(within(panel).getByText('Active')).toBeInTheDocument();
    expect(within(panel).getByText('Billed monthly')).toBeInTheDocument();
    expect(
      within(panel).getByText(
        `Renews on ${formatPlanDate(subscription.planExpiresin)} — next charge $49.00.`,
      ),
    ).toBeInTheDocument();

    const proCard = screen.getByRole('region', { name: 'Pro' });
    expect(within(proCard).getByText('Current plan')).toBeInTheDocument();
    expect(within(proCard).queryByRole('button')).not.toBeInTheDocument();
    const starterCard = screen.getByRole('region', { name: 'Starter' });
    expect(within(starterCard).queryByRole('button', { name: 'Choose Starter' })).not.toBeInTheDocument();
    expect(
      within(starterCard).getByText(/You pay for Pro: plans change in Manage billing/),
    ).toBeInTheDocument();

    await user.click(within(starterCard).getByRole('button', { name: 'Switch in Manage billing' }));
    expect(openBillingPortal).toHaveBeenCalledOnce();
    expect(assign).toHaveBeenCalledExactlyOnceWith(PORTAL_URL);
    expect(within(panel).getByRole('button', { name: 'Manage billing' })).toHaveAttribute(
      'data-loading',
      'true',
    );
    expect(createPlanOrder).not.toHaveBeenCalled();
  });

  it("warns when the last payment failed, with the grace period's end", async () => {
    const graceUntil = NOW + 7 * 86_400;
    vi.mocked(getSubscription).mockResolvedValue(ok(aProSubscription({ state: 'past_due', graceUntil })));
    renderAt('/app/pricing');
    const panel = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      `Your last payment failed. Update your card by ${formatPlanDate(graceUntil)} to keep Pro.`,
    );
    expect(within(panel).getByRole('button', { name: 'Manage billing' })).toBeInTheDocument();
  });

  it('says when a Free period ends, with no Manage billing for someone who never paid', async () => {
    const until = NOW + 10 * 86_400;
    vi.mocked(getSubscription).mockResolvedValue(ok(aSubscription({ planExpiresin: until })));
    setUserInfo({ ...onboarded, planExpiresin: until });
    renderAt('/app/pricing');
    const panel = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(panel).getByText(`Free until ${formatPlanDate(until)}.`)).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Free' })).getByText('Current plan'),
    ).toBeInTheDocument();
    // Not paying, so paid plans can be bought.
    expect(await screen.findByRole('button', { name: 'Choose Pro' })).toBeEnabled();
  });

  it("keeps Manage billing usable and shows the server's message when the portal cannot open", async () => {
    const down = serverAnswering(503, {
      code: 'UNAVAILABLE',
      message: 'Billing is not reachable right now. Try again in a minute.',
    });
    vi.mocked(getSubscription).mockResolvedValue(ok(aProSubscription()));
    vi.mocked(openBillingPortal).mockImplementation(() => down.post('/monitor-bff/subscription/portal'));
    const user = userEvent.setup();
    renderAt('/app/pricing');
    const panel = await screen.findByRole('region', { name: 'Your plan' });
    const manage = within(panel).getByRole('button', { name: 'Manage billing' });
    await user.click(manage);
    expect(
      await screen.findByText('Billing is not reachable right now. Try again in a minute.'),
    ).toBeInTheDocument();
    expect(manage).not.toHaveAttribute('data-loading');
    expect(assign).not.toHaveBeenCalled();
  });
});
