import { Anchor, Divider, Stack } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { AuthLayout } from '../components/auth-layout.tsx';
import { GoogleButton } from '../features/auth/components/google-button.tsx';
import { RegisterForm } from '../features/auth/components/register-form.tsx';
import { homeAfterStartup } from '../app/startup.ts';
import { useContinue } from '../app/use-continue.ts';
import { parseQuery, stringifyQuery } from '../lib/query-string.ts';
import { getToken, returnPath } from '../lib/session.ts';

export default function RegisterPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  const { afterSignIn } = useContinue();

  if (getToken()) {
    const home = homeAfterStartup(query, returnPath());
    return <Navigate to={{ pathname: home.pathname, search: home.search }} replace />;
  }

  return (
    <AuthLayout
      title="Create your Vigil account"
      subtitle="Set up in two minutes. Your first monitors run on the Free plan."
      footer={
        <>
          Already have an account?{' '}
          <Anchor
            component={Link}
            to={{ pathname: '/login', search: stringifyQuery({ redirect: query.redirect }) }}
            fw={600}
          >
            Sign in
          </Anchor>
        </>
      }
    >
      <Stack gap="lg">
        <GoogleButton redirect={query.redirect} label="Sign up with Google" />
        <Divider label="or with your email" labelPosition="center" />
        <RegisterForm onRegistered={afterSignIn} />
      </Stack>
    </AuthLayout>
  );
}
