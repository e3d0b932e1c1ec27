import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { AuthLayout } from '../components/auth-layout.tsx';
import { BareHeader } from '../components/bare-header.tsx';
import { IconCircleX } from '../components/icons.tsx';
import { useLogout } from '../app/use-logout.ts';

export default function PaymentErrorPage() {
  const { logout, loggingOut } = useLogout();
  return (
    <AuthLayout
      header={<BareHeader onLogout={logout} loggingOut={loggingOut} />}
      title="The payment did not go through"
    >
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="xl" variant="light" color="red" aria-hidden="true">
          <IconCircleX size={28} />
        </ThemeIcon>
        <Text>
          Nothing was charged and your current plan is unchanged. You can try again with the same or another
          card, or pick a different plan.
        </Text>
        <Button component={Link} to="/pricing" fullWidth>
          Back to plans
        </Button>
        <Button component={Link} to="/monitor" variant="subtle" fullWidth>
          Go to your monitors
        </Button>
      </Stack>
    </AuthLayout>
  );
}
