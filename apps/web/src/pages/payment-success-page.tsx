import { useEffect, useState } from 'react';
import { Button, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import type { PlanOrder, UserInfo } from '@vigil/contracts';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '../components/icons.tsx';
import {
  NoOrder,
  OrderSummary,
  RetryCheckoutButton,
  PaymentPage,
} from '../features/plans/components/order-parts.tsx';
import { forgetCheckoutRedirect, readCheckoutRedirect } from '../features/plans/checkout-redirect.ts';
import {
  ORDER_CONFIRM_PATIENCE_MS,
  isAwaitingPayment,
  usePlanOrder,
} from '../features/plans/hooks/use-plan-order.ts';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import { getUserInfo } from '../features/user/api/get-user-info.ts';
import { decideStartup, nowInSeconds, type Navigation } from '../app/startup.ts';
import { parseQuery, type Query } from '../lib/query-string.ts';
import { getUserInfo as getStoredUser, isAbPricingSet, setUserInfo } from '../lib/session.ts';

/** How long "You're on Pro" shows before the app moves on by itself. */
export const CONTINUE_AFTER_SECONDS = 5;

/** Where the person goes once the plan runs: the pending binding (rule 4) if one waits, else the monitors. */
function nextAfterPayment(user: UserInfo | null, redirect: string | null): Navigation {
  const query: Query = redirect ? { redirect } : {};
  const next = user ? decideStartup({ user, query, now: nowInSeconds(), abPricing: isAbPricingSet() }) : null;
  return next ?? { pathname: '/monitor', search: '', replace: true };
}

/** The new plan's user, so the startup rules see it; if that read fails, the order says the same. */
async function refreshUser(order: PlanOrder): Promise<UserInfo | null> {
  const result = await getUserInfo();
  if (result.ok) {
    setUserInfo(result.data);
    return result.data;
  }
  const stored = getStoredUser();
  if (!stored || order.planExpiresin === null) return stored;
  const updated = { ...stored, plan: order.plan, planExpiresin: order.planExpiresin };
  setUserInfo(updated);
  return updated;
}

function waitedWords(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Just started.';
  return `Waiting for ${seconds} second${seconds === 1 ? '' : 's'}.`;
}

function PlanActivated({ order }: { order: PlanOrder }) {
  const navigate = useNavigate();
  const [target, setTarget] = useState<Navigation | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(CONTINUE_AFTER_SECONDS);

  useEffect(() => {
    let cancelled = false;
    void refreshUser(order).then((user) => {
      if (!cancelled) setTarget(nextAfterPayment(user, readCheckoutRedirect()));
    });
    return () => {
      cancelled = true;
    };
  }, [order]);

  useEffect(() => {
    if (!target) return;
    const timer = setInterval(() => setSecondsLeft((n) => n - 1), 1000);
    return () => clearInterval(timer);
  }, [target]);

  useEffect(() => {
    if (!target || secondsLeft > 0) return;
    forgetCheckoutRedirect();
    void navigate({ pathname: target.pathname, search: target.search }, { replace: true });
  }, [target, secondsLeft, navigate]);

  const until = order.planExpiresin !== null ? formatPlanDate(order.planExpiresin) : null;
  return (
    <Stack gap="md" align="stretch">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
        <IconCircleCheck size={28} />
      </ThemeIcon>
      <Text role="status">
        Thank you: your payment is confirmed.{' '}
        {until ? `${order.plan} runs until ${until} and renews automatically.` : `${order.plan} is active.`}
      </Text>
      <OrderSummary order={order} />
      <Button loading={!target} onClick={() => setSecondsLeft(0)} fullWidth>
        Continue
      </Button>
      {target ? (
        <Text size="sm" c="dimmed" ta="center">
          Continuing in {Math.max(secondsLeft, 0)} s…
        </Text>
      ) : null}
    </Stack>
  );
}

function Confirming({ waitedMs }: { waitedMs: number }) {
  return (
    <Stack gap="md" align="stretch">
      <Group gap="md" wrap="nowrap">
        <Loader size="md" aria-hidden="true" />
        <Stack gap={2}>
          <Text role="status">Confirming your payment with Stripe…</Text>
          <Text size="sm" c="dimmed">
            {waitedWords(waitedMs)} This usually takes a few seconds.
          </Text>
        </Stack>
      </Group>
    </Stack>
  );
}

function NotConfirmedYet({ checkNow, checking }: { checkNow: () => void; checking: boolean }) {
  return (
    <Stack gap="md" align="stretch">
      <Text>
        Stripe has not told Vigil about your payment yet. This can take a few minutes. Nothing is charged
        twice: your plan starts as soon as Stripe confirms, even if you leave this page. We keep checking in
        the background.
      </Text>
      <Button onClick={checkNow} loading={checking} fullWidth>
        Check again
      </Button>
      <Button component={Link} to="/pricing" variant="subtle" fullWidth>
        Back to plans
      </Button>
    </Stack>
  );
}

function PaymentFailed({ order }: { order: PlanOrder }) {
  return (
    <Stack gap="md" align="stretch">
      <ThemeIcon size={48} radius="xl" variant="light" color="red" aria-hidden="true">
        <IconCircleX size={28} />
      </ThemeIcon>
      <Text role="alert">
        {order.failure?.message ?? 'This order can no longer be paid. Nothing was charged.'}
      </Text>
      <OrderSummary order={order} />
      <RetryCheckoutButton order={order} />
      <Button component={Link} to="/pricing" variant="subtle" fullWidth>
        Back to plans
      </Button>
    </Stack>
  );
}

/**
 * Where Stripe Checkout returns after paying (`?order=…`). The plan starts when Stripe's webhook reaches the
 * server, which may be a moment after the browser arrives: the page asks every second and says so.
 */
export default function PaymentSuccessPage() {
  const { search } = useLocation();
  const orderId = parseQuery(search).order || undefined;
  const { view, waitedMs, checkNow, checking } = usePlanOrder(orderId, { poll: true });

  if (view.status === 'missing') {
    return (
      <PaymentPage title="There is no order to show">
        <NoOrder />
      </PaymentPage>
    );
  }
  if (view.status === 'failed') {
    return (
      <PaymentPage title="Your payment could not be checked">
        <Stack gap="md" align="stretch">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconAlertTriangle size={20} color="var(--mantine-color-red-8)" style={{ flex: 'none' }} />
            <Text>
              Vigil could not be reached to check the order. If you paid, nothing is lost: your plan starts as
              soon as Stripe confirms.
            </Text>
          </Group>
          <Button onClick={checkNow} loading={checking} fullWidth>
            Check again
          </Button>
        </Stack>
      </PaymentPage>
    );
  }
  if (view.status === 'ready' && view.order.status === 'active') {
    return (
      <PaymentPage title={`You're on ${view.order.plan}`}>
        <PlanActivated order={view.order} />
      </PaymentPage>
    );
  }
  if (view.status === 'ready' && !isAwaitingPayment(view.order)) {
    return (
      <PaymentPage title="The payment did not go through">
        <PaymentFailed order={view.order} />
      </PaymentPage>
    );
  }
  if (view.status === 'ready' && waitedMs >= ORDER_CONFIRM_PATIENCE_MS) {
    return (
      <PaymentPage title="Stripe has not confirmed your payment yet">
        <NotConfirmedYet checkNow={checkNow} checking={checking} />
      </PaymentPage>
    );
  }
  return (
    <PaymentPage title="Confirming your payment">
      <Confirming waitedMs={waitedMs} />
    </PaymentPage>
  );
}
