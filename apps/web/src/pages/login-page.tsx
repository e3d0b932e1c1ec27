import { useState } from 'react';
import { Alert, Anchor, Divider, Stack } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { AuthLayout } from '../components/auth-layout.tsx';
import { IconCircleCheck } from '../components/icons.tsx';
import { ForgotPassword } from '../features/auth/components/forgot-password.tsx';
import { GoogleButton } from '../features/auth/components/google-button.tsx';
import { LoginForm } from '../features/auth/components/login-form.tsx';
import { homeAfterStartup } from '../app/startup.ts';
import { useContinue } from '../app/use-continue.ts';
import { parseQuery, stringifyQuery } from '../lib/query-string.ts';
import { getToken, returnPath } from '../lib/session.ts';

type Mode = 'signin' | 'request' | 'verify';

const TITLES: Record<Mode, { title: string; subtitle: string }> = {
  signin: {
    title: 'Sign in to Vigil',
    subtitle: 'Watch your shop, ads and storefront, and hear the moment they break.',
  },
  request: { title: 'Reset your password', subtitle: 'We will email you a code.' },
  verify: { title: 'Choose a new password', subtitle: 'Use the code from the email we sent you.' },
};

export default function LoginPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  const { afterSignIn } = useContinue();
  // The reset email links here with ?reset=1&email=… (and the code, when the mail carries it).
  const [mode, setMode] = useState<Mode>(query.reset ? 'verify' : 'signin');
  const [email, setEmail] = useState(query.email ?? '');
  const [passwordReset, setPasswordReset] = useState(false);

  if (mode === 'signin' && !query.reset && getToken()) {
    const home = homeAfterStartup(query, returnPath());
    return <Navigate to={{ pathname: home.pathname, search: home.search }} replace />;
  }

  const registerSearch = stringifyQuery({ redirect: query.redirect });
  const { title, subtitle } = TITLES[mode];

  return (
    <AuthLayout
      title={title}
      subtitle={subtitle}
      footer={
        mode === 'signin' ? (
          <>
            New to Vigil?{' '}
            <Anchor component={Link} to={{ pathname: '/register', search: registerSearch }} fw={600}>
              Create an account
            </Anchor>
          </>
        ) : null
      }
    >
      {mode === 'signin' ? (
        <Stack gap="lg">
          {passwordReset ? (
            <Alert variant="light" icon={<IconCircleCheck />} title="Password changed" role="status">
              Sign in with your new password.
            </Alert>
          ) : null}
          <GoogleButton redirect={query.redirect} />
          <Divider label="or with your email" labelPosition="center" />
          <LoginForm
            key={email}
            defaultEmail={email}
            onSignedIn={afterSignIn}
            onForgotPassword={(typed) => {
              setEmail(typed);
              setMode('request');
            }}
          />
        </Stack>
      ) : (
        <ForgotPassword
          step={mode}
          onStepChange={setMode}
          initialEmail={email}
          initialCode={query.code ?? ''}
          onDone={(address) => {
            setEmail(address);
            setPasswordReset(true);
            setMode('signin');
          }}
          onCancel={() => setMode('signin')}
        />
      )}
    </AuthLayout>
  );
}
