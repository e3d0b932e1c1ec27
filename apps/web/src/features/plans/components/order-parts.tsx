import type { ReactNode } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { PlanOrder } from '@vigil/contracts';
import { useLogout } from '../../../app/use-logout.ts';
import { AuthLayout } from '../../../components/auth-layout.tsx';
import { BareHeader } from '../../../components/bare-header.tsx';
import { useCheckout } from '../hooks/use-checkout.ts';
import { describeOrder } from '../subscription-format.ts';

/** A payment page's frame: no shell (the spec's rule for paths with 'payment'), a bare header with Log out. */
export function PaymentPage({ title, children }: { title: string; children: ReactNode }) {
  const { logout, loggingOut } = useLogout();
  return (
    <AuthLayout header={<BareHeader onLogout={logout} loggingOut={loggingOut} />} title={title}>
      {children}
    </AuthLayout>
  );
}

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
