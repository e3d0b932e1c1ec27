import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type {
  BillingPeriod,
  Plan,
  PlanCoverage,
  PlanOrderAccounts,
  SubscriptionInfo,
} from '@vigil/contracts';
import { BareHeader } from '../components/bare-header.tsx';
import { ErrorState } from '../components/page-states.tsx';
import { IconAlertTriangle } from '../components/icons.tsx';
import { SegmentedChoice } from '../components/segmented-choice.tsx';
import { choosePlan } from '../features/plans/api/choose-plan.ts';
import { getPlanCoverage } from '../features/plans/api/get-plan-coverage.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { getSubscription } from '../features/plans/api/get-subscription.ts';
import { PlanCard } from '../features/plans/components/plan-card.tsx';
import { SubscriptionPanel } from '../features/plans/components/subscription-panel.tsx';
import { useBillingPortal } from '../features/plans/hooks/use-billing-portal.ts';
import { useCheckout } from '../features/plans/hooks/use-checkout.ts';
import { formatPlanDate, planHeadingId } from '../features/plans/plan-format.ts';
import { isPaying } from '../features/plans/subscription-format.ts';
import { NO_PLAN_PERIOD, decideStartup, nowInSeconds } from '../app/startup.ts';
import { useContinue } from '../app/use-continue.ts';
import { useLogout } from '../app/use-logout.ts';
import { parseQuery } from '../lib/query-string.ts';
import { isAbPricingSet } from '../lib/session.ts';
import { useRequest } from '../lib/use-request.ts';
import { useUserInfo } from '../lib/use-user-info.ts';

const PERIOD_OPTIONS: { value: BillingPeriod; label: string }[] = [
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** A plan's coverage sentence, once the person has something it could cover. */
function coverageOf(accounts: PlanOrderAccounts | undefined, plan: Plan): PlanCoverage | null {
  if (!accounts || (accounts.accounts.length === 0 && accounts.monitorCount === 0)) return null;
  return accounts.plans.find((coverage) => coverage.plan === plan.name) ?? null;
}

/** The plan running now: from the subscription when it loaded, else from the stored user. */
function currentPlanName(
  subscription: SubscriptionInfo | undefined,
  user: { plan: string; planExpiresin: string | number } | null,
  nowSeconds: number,
): string | null {
  if (subscription) {
    const { state, planExpiresin } = subscription;
    if (state === 'ended' || String(planExpiresin) === NO_PLAN_PERIOD) return null;
    if (state === 'free' && Number(planExpiresin) <= nowSeconds) return null;
    return subscription.plan;
  }
  if (!user || String(user.planExpiresin) === NO_PLAN_PERIOD) return null;
  return user.plan;
}

export default function PricingPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  const user = useUserInfo();
  const { afterUserChange } = useContinue();
  const { logout, loggingOut } = useLogout();
  const plans = useRequest('plans', getPlans);
  const subscription = useRequest('subscription', getSubscription);
  const accounts = useRequest('plan-coverage', getPlanCoverage);
  const { startCheckout, starting } = useCheckout();
  const { openPortal, opening } = useBillingPortal();
  const [period, setPeriod] = useState<BillingPeriod>('month');
  const [choosing, setChoosing] = useState<string | null>(null);

  async function choose(plan: Plan) {
    setChoosing(plan.name);
    const result = await choosePlan(plan.name);
    setChoosing(null);
    if (result.ok) afterUserChange(result.data);
  }

  async function buy(plan: Plan) {
    const result = await startCheckout({ plan: plan.name, period }, { redirect: query.redirect });
    // Already paying (another tab, or the webhook landed since this page loaded): show it as it is now.
    if (!result.ok && result.status === 409) subscription.reload();
  }

  const now = nowInSeconds();
  const endedOn = query.planExpiresin !== undefined ? formatPlanDate(query.planExpiresin) : null;
  const neverStarted = user?.plan === 'Free' && String(user.planExpiresin) === NO_PLAN_PERIOD;
  // Someone who came here by choice (not sent by a startup rule) gets a way back.
  const free = user && decideStartup({ user, query: {}, now, abPricing: isAbPricingSet() }) === null;
  const current = currentPlanName(subscription.data, user, now);
  const paying = subscription.data ? isPaying(subscription.data) : false;
  const busy = choosing !== null || starting !== null;
  const list = plans.data?.list ?? [];
  const sellsPaidPlans = list.some((plan) => plan.checkout);

  function offer(plan: Plan): ReactNode {
    const describedBy = `${planHeadingId(plan.name)}-offer`;
    if (!plan.checkout) {
      return (
        <Button
          fullWidth
          loading={choosing === plan.name}
          disabled={busy && choosing !== plan.name}
          onClick={() => void choose(plan)}
        >
          Choose {plan.name}
        </Button>
      );
    }
    if (paying && plan.name === current) {
      return (
        <Text size="sm" c="dimmed" ta="center">
          This is your plan. Its card, invoices and cancellation are in Manage billing.
        </Text>
      );
    }
    if (paying) {
      return (
        <>
          {subscription.data?.canManageBilling ? (
            <Button
              variant="default"
              fullWidth
              loading={opening}
              onClick={openPortal}
              aria-describedby={describedBy}
            >
              Switch in Manage billing
            </Button>
          ) : null}
          <Text size="xs" c="dimmed" ta="center" id={describedBy}>
            You pay for {current}: plans change in Manage billing, where Stripe settles the difference.
          </Text>
        </>
      );
    }
    return (
      <>
        <Button
          fullWidth
          loading={starting === plan.name}
          // Until the subscription is known, a second checkout for someone already paying is possible.
          disabled={(busy && starting !== plan.name) || subscription.status === 'loading'}
          onClick={() => void buy(plan)}
          aria-describedby={describedBy}
        >
          Choose {plan.name}
        </Button>
        <Text size="xs" c="dimmed" ta="center" id={describedBy}>
          Secure payment with Stripe. Cancel any time in Manage billing.
        </Text>
      </>
    );
  }

  return (
    <>
      <BareHeader onLogout={logout} loggingOut={loggingOut}>
        {free ? (
          <Button component={Link} to="/monitor" variant="default">
            Back to monitors
          </Button>
        ) : null}
      </BareHeader>
      <Container size="lg" component="main" pb={64}>
        <Stack gap="xl">
          <Stack gap="xs" ta="center" align="center">
            <Title order={1}>Choose your plan</Title>
            <Text c="dimmed" maw={620}>
              {neverStarted
                ? 'One last step: pick a plan to start monitoring. You can change it later from Subscription.'
                : 'Every plan watches your storefront, shop and ad accounts, and alerts you the moment something breaks.'}
            </Text>
          </Stack>

          {subscription.data && String(subscription.data.planExpiresin) !== NO_PLAN_PERIOD ? (
            <SubscriptionPanel
              subscription={subscription.data}
              nowSeconds={now}
              onManageBilling={openPortal}
              openingPortal={opening}
            />
          ) : null}

          {query.planExpiresin !== undefined ? (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle />}
              title="Your plan period has ended"
              role="status"
            >
              {endedOn
                ? `Your plan period ended on ${endedOn}. Choose a plan to keep your monitors running.`
                : 'Choose a plan to keep your monitors running.'}
            </Alert>
          ) : null}

          {sellsPaidPlans ? (
            <Group justify="center">
              <SegmentedChoice
                label="Billing period"
                choices={PERIOD_OPTIONS}
                value={period}
                onChange={setPeriod}
              />
            </Group>
          ) : null}

          {plans.data === undefined && plans.status !== 'failed' ? (
            <SimpleGrid
              cols={{ base: 1, sm: 2, md: 3 }}
              spacing="lg"
              aria-busy="true"
              aria-label="Loading plans"
            >
              {[0, 1, 2].map((n) => (
                <Skeleton key={n} h={460} radius="lg" />
              ))}
            </SimpleGrid>
          ) : null}

          {plans.data === undefined && plans.status === 'failed' ? (
            <ErrorState title="The plans could not be loaded" onRetry={plans.reload}>
              Check your connection and try again.
            </ErrorState>
          ) : null}

          {plans.data !== undefined && list.length === 0 ? (
            <Paper withBorder p="xl" radius="lg" ta="center">
              <Text fw={600}>No plans are offered right now.</Text>
              <Text c="dimmed" size="sm">
                Please try again later, or write to us and we will set up your account.
              </Text>
            </Paper>
          ) : null}

          {list.length > 0 ? (
            <SimpleGrid cols={{ base: 1, sm: 2, md: Math.min(list.length, 4) }} spacing="lg">
              {list.map((plan) => (
                <PlanCard
                  key={plan.name}
                  plan={plan}
                  period={period}
                  current={plan.name === current}
                  coverage={coverageOf(accounts.data, plan)}
                >
                  {offer(plan)}
                </PlanCard>
              ))}
            </SimpleGrid>
          ) : null}
        </Stack>
      </Container>
    </>
  );
}
