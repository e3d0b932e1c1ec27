import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { AuthLayout } from '../components/auth-layout.tsx';
import { BareHeader } from '../components/bare-header.tsx';
import { IconCircleCheck } from '../components/icons.tsx';
import { useLogout } from '../app/use-logout.ts';

export default function PaymentSuccessPage() {
  const { logout, loggingOut } = useLogout();
  return (
    <AuthLayout header={<BareHeader onLogout={logout} loggingOut={loggingOut} />} title="Payment received">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconCircleCheck size={28} />
        </ThemeIcon>
        <Text>
          Thank you. Your plan is being activated; it takes effect as soon as the payment provider confirms
          it, usually within a minute.
        </Text>
        <Button component={Link} to="/monitor" fullWidth>
          Go to your monitors
        </Button>
        <Button component={Link} to="/settings" variant="subtle" fullWidth>
          See your plan in Settings
        </Button>
      </Stack>
    </AuthLayout>
  );
}
