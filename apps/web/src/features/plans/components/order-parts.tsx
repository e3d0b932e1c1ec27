import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { PlanOrder } from '@vigil/contracts';
import { useCheckout } from '../hooks/use-checkout.ts';
import { describeOrder } from '../subscription-format.ts';

/** What the order buys, in a muted line: "Pro, billed monthly: $49.00". */
export function OrderSummary({ order }: { order: PlanOrder }) {
  return (
    <Text size="sm" c="dimmed">
      {describeOrder(order)}
    </Text>
  );
}

/** No order in the address, or none of this person's by that id: nothing was paid here, so say so. */
export function NoOrder() {
  return (
    <Stack gap="md" align="stretch">
      <Text>
        This link does not point to an order of yours, so there is no payment to show. Your plan is unchanged.
      </Text>
      <Button component={Link} to="/pricing" fullWidth>
        See plans
      </Button>
    </Stack>
  );
}

/** A new Checkout for the same plan and period; the pending `redirect` stays as the pricing page left it. */
export function RetryCheckoutButton({ order }: { order: PlanOrder }) {
  const { startCheckout, starting } = useCheckout();
  return (
    <Button
      fullWidth
      loading={starting !== null}
      onClick={() => void startCheckout({ plan: order.plan, period: order.period })}
    >
      Try again
    </Button>
  );
}
