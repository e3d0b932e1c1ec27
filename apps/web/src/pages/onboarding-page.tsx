import { Text } from '@mantine/core';
import { AuthLayout } from '../components/auth-layout.tsx';
import { BareHeader } from '../components/bare-header.tsx';
import { OnboardingForm } from '../features/user/components/onboarding-form.tsx';
import { useContinue } from '../app/use-continue.ts';
import { useLogout } from '../app/use-logout.ts';
import { useUserInfo } from '../lib/use-user-info.ts';

export default function OnboardingPage() {
  const user = useUserInfo();
  const { afterUserChange } = useContinue();
  const { logout, loggingOut } = useLogout();

  return (
    <AuthLayout
      header={<BareHeader onLogout={logout} loggingOut={loggingOut} />}
      width={520}
      title="Where should we reach you?"
      subtitle={
        <>
          When something breaks, Vigil calls, texts or emails you. Tell us what you sell and give us at least
          one way to reach you
          {user ? (
            <>
              {' '}
              — you are signed in as{' '}
              <Text span fw={600}>
                {user.email}
              </Text>
            </>
          ) : null}
          .
        </>
      }
    >
      <OnboardingForm user={user} onDone={afterUserChange} />
    </AuthLayout>
  );
}
