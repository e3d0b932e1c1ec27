import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { PlanOrder } from '@vigil/contracts';
import { ErrorState, SectionSpinner } from '../components/page-states.tsx';
import { IconCircleCheck, IconCircleX } from '../components/icons.tsx';
import {
  NoOrder,
  OrderSummary,
  RetryCheckoutButton,
  PaymentPage,
} from '../features/plans/components/order-parts.tsx';
import { usePlanOrder } from '../features/plans/hooks/use-plan-order.ts';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import { parseQuery, stringifyQuery } from '../lib/query-string.ts';

/** Why the order was not paid, in words, with the server's own sentence where it has one. */
function whyNotPaid(order: PlanOrder): { title: string; text: string } {
  if (order.failure?.reason === 'declined') {
    // The server's message says what the bank answered, in words for the person.
    return { title: 'The payment did not go through', text: order.failure.message };
  }
  if (order.failure?.reason === 'expired') {
    return { title: 'Checkout expired', text: order.failure.message };
  }
  if (order.status === 'failed') {
    return {
      title: 'The payment did not go through',
      text: 'This order can no longer be paid. Nothing was charged.',
    };
  }
  return { title: 'You left checkout', text: 'You left checkout before paying. Nothing was charged.' };
}

function PaidAfterAll({ order }: { order: PlanOrder }) {
  const until = order.planExpiresin !== null ? formatPlanDate(order.planExpiresin) : null;
  return (
    <Stack gap="md" align="stretch">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
        <IconCircleCheck size={28} />
      </ThemeIcon>
      <Text>
        Stripe confirmed this payment, so there is nothing to fix.{' '}
        {until ? `${order.plan} runs until ${until}.` : `${order.plan} is active.`}
      </Text>
      <OrderSummary order={order} />
      <Button
        component={Link}
        to={{ pathname: '/payment-success', search: stringifyQuery({ order: order.orderId }) }}
        fullWidth
      >
        Continue
      </Button>
    </Stack>
  );
}

/** Where Stripe Checkout returns when the person leaves it (`?order=…`): what happened, and another try. */
export default function PaymentErrorPage() {
  const { search } = useLocation();
  const orderId = parseQuery(search).order || undefined;
  const { view, checkNow } = usePlanOrder(orderId, { poll: true });

  if (view.status === 'missing') {
    return (
      <PaymentPage title="There is no order to show">
        <NoOrder />
      </PaymentPage>
    );
  }
  if (view.status === 'loading') {
    return (
      <PaymentPage title="Checking your payment">
        <SectionSpinner label="Loading the order" />
      </PaymentPage>
    );
  }
  if (view.status === 'failed') {
    return (
      <PaymentPage title="Checking your payment">
        <Stack gap="md" align="stretch">
          <ErrorState title="The order could not be loaded" onRetry={checkNow}>
            Check your connection and try again.
          </ErrorState>
          <Button component={Link} to="/pricing" variant="subtle" fullWidth>
            Back to plans
          </Button>
        </Stack>
      </PaymentPage>
    );
  }

  const { order } = view;
  if (order.status === 'active') {
    return (
      <PaymentPage title={`You're on ${order.plan}`}>
        <PaidAfterAll order={order} />
      </PaymentPage>
    );
  }
  const { title, text } = whyNotPaid(order);
  return (
    <PaymentPage title={title}>
      <Stack gap="md" align="stretch">
        <ThemeIcon size={48} radius="xl" variant="light" color="red" aria-hidden="true">
          <IconCircleX size={28} />
        </ThemeIcon>
        <Text>{text}</Text>
        <OrderSummary order={order} />
        <RetryCheckoutButton order={order} />
        <Button component={Link} to="/pricing" variant="subtle" fullWidth>
          Back to plans
        </Button>
      </Stack>
    </PaymentPage>
  );
}
