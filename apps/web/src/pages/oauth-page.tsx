import { useEffect, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Connection, Provider, Session } from '@vigil/contracts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { IconAlertTriangle } from '../components/icons.tsx';
import { login } from '../features/auth/api/login.ts';
import { afterBinding, bindReturn, isBindingReturn } from '../features/monitors/connect/bind-return.ts';
import { accountLabel, PROVIDER_WORDS } from '../features/monitors/connect/connection-format.ts';
import { markConnected, readOAuthReturn } from '../features/monitors/connect/oauth-return.ts';
import { MONITOR_CREATE_PATH } from '../features/monitors/paths.ts';
import { useContinue } from '../app/use-continue.ts';
import { parseQuery, type Query } from '../lib/query-string.ts';
import { type ApiResult } from '../lib/api-client.ts';
import { getToken } from '../lib/session.ts';

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

function Working({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <AuthLayout title={title} subtitle={subtitle}>
      <Stack align="center" py="md" role="status" aria-live="polite">
        <Loader aria-hidden="true" />
        <Text size="sm" c="dimmed">
          One moment…
        </Text>
      </Stack>
    </AuthLayout>
  );
}

function Failed({
  title,
  message,
  back,
}: {
  title: string;
  message: string;
  back: { to: string; label: string };
}) {
  return (
    <AuthLayout title={title}>
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert">
          {message}
        </Alert>
        <Button component={Link} to={back.to} fullWidth>
          {back.label}
        </Button>
      </Stack>
    </AuthLayout>
  );
}

/** An OpenID (Google) sign-in return: exchanges the code for a session. */
function SignInReturn({ query }: { query: Query }) {
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

  if (!failure) return <Working title="Signing you in" subtitle="Finishing your Google sign-in." />;
  return (
    <Failed
      title="We could not sign you in"
      message={failure}
      back={{ to: '/login', label: 'Back to sign in' }}
    />
  );
}

/** The words of a binding's return for its provider; `null` when it is not known (saved in another tab). */
function bindingWords(provider: Provider | null, query: Query) {
  if (provider === 'shopify') {
    return {
      working: 'Connecting your shop',
      subtitle: `Finishing the connection of ${query.shop ?? 'your shop'}.`,
      failed: 'We could not connect your shop',
      cancelled: 'Connecting the shop was cancelled, or access was not granted.',
      refused: (reason: string) => `Shopify did not connect the shop: ${reason}.`,
    };
  }
  const yours = provider ? PROVIDER_WORDS[provider].yours : 'your account';
  const by = provider ? PROVIDER_WORDS[provider].name : 'The provider';
  return {
    working: `Connecting ${yours}`,
    subtitle: `Finishing the connection of ${yours}.`,
    failed: `We could not connect ${yours}`,
    cancelled: `Connecting ${yours} was cancelled, or access was not granted.`,
    refused: (reason: string) => `${by} did not connect the account: ${reason}.`,
  };
}

/** What the notice says once an account is connected. */
function connectedNotice(connection: Connection) {
  if (connection.provider === 'shopify') {
    return { title: `Connected ${connection.account}`, message: 'Vigil can now watch this shop.' };
  }
  return {
    title: `Connected ${PROVIDER_WORDS[connection.provider].account} ${accountLabel(connection)}`,
    message:
      connection.provider === 'google'
        ? 'Vigil can now watch the Google Ads accounts it reaches.'
        : 'Vigil can now watch the ad accounts it reaches.',
  };
}

/**
 * A binding's return (Shopify, Google, Meta): posts every parameter to `bind` once, then goes back where
 * Connect was pressed (the form restores its values with the account chosen), or on with a held install (see
 * `afterBinding`). Meta appends `#_=_` to the address; only the query is read, so it is ignored.
 */
function BindingReturn({ query }: { query: Query }) {
  const navigate = useNavigate();
  const [saved] = useState(() => readOAuthReturn());
  const provider: Provider | null = query.shop && query.hmac ? 'shopify' : (saved?.provider ?? null);
  const words = bindingWords(provider, query);
  const [failure, setFailure] = useState<string | null>(() =>
    query.error
      ? query.error === 'access_denied'
        ? words.cancelled
        : words.refused(query.error_description ?? query.error)
      : null,
  );

  useEffect(() => {
    if (failure) return;
    let active = true;
    void bindReturn(query).then((result) => {
      if (!active) return;
      if (!result.ok) {
        setFailure(result.message);
        return;
      }
      const next = afterBinding(result.data, { signedIn: Boolean(getToken()), returnTo: saved?.returnTo });
      if (next.status === 'bound') {
        markConnected(next.connection, next.to);
        notifications.show({ color: 'vigil', ...connectedNotice(next.connection) });
      }
      void navigate(next.to, { replace: true });
    });
    return () => {
      active = false;
    };
    // One binding per return: the query is this page's address, read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failure]);

  if (!failure) return <Working title={words.working} subtitle={words.subtitle} />;
  const back = saved?.returnTo ?? MONITOR_CREATE_PATH;
  const toForm = /^\/monitor_(create|edit)\b/.test(back);
  return (
    <Failed
      title={words.failed}
      message={failure}
      back={{ to: back, label: toForm ? 'Back to the monitor form' : 'Go back' }}
    />
  );
}

/** /oauth: where Google sign-in and the connection of a Shopify shop, a Google or a Facebook account come back. */
export default function OAuthPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  return isBindingReturn(query) ? <BindingReturn query={query} /> : <SignInReturn query={query} />;
}
