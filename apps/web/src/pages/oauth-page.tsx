import { useEffect, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { Session } from '@vigil/contracts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { IconAlertTriangle } from '../components/icons.tsx';
import { login } from '../features/auth/api/login.ts';
import { useContinue } from '../app/use-continue.ts';
import { parseQuery } from '../lib/query-string.ts';
import { type ApiResult } from '../lib/api-client.ts';

// An authorization code is single-use: remember the ones already sent, so a re-render or React's
// development double effect never posts one twice.
const exchanges = new Map<string, Promise<ApiResult<Session>>>();

function exchange(code: string, state: string) {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = login({ code, state });
    exchanges.set(code, pending);
  }
  return pending;
}

/** The provider's answer, as a sentence for the user. */
function providerError(error: string, description: string | undefined): string {
  if (error === 'access_denied') return 'Sign-in was cancelled, or access was not granted.';
  return description ? `Google sign-in failed: ${description}` : `Google sign-in failed (${error}).`;
}

export default function OAuthPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  const { afterSignIn } = useContinue();
  const { code, state, error } = query;
  const [failure, setFailure] = useState<string | null>(() => {
    if (error) return providerError(error, query.error_description);
    if (!code || !state) return 'This page finishes a Google sign-in, but the answer from Google is missing.';
    return null;
  });

  useEffect(() => {
    if (failure || !code || !state) return;
    let active = true;
    void exchange(code, state).then((result) => {
      if (!active) return;
      if (result.ok) afterSignIn(result.data);
      else setFailure(result.message);
    });
    return () => {
      active = false;
    };
  }, [code, state, failure, afterSignIn]);

  if (!failure) {
    return (
      <AuthLayout title="Signing you in" subtitle="Finishing your Google sign-in.">
        <Stack align="center" py="md" role="status" aria-live="polite">
          <Loader aria-hidden="true" />
          <Text size="sm" c="dimmed">
            One moment…
          </Text>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="We could not sign you in">
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert">
          {failure}
        </Alert>
        <Button component={Link} to="/login" fullWidth>
          Back to sign in
        </Button>
      </Stack>
    </AuthLayout>
  );
}
