import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconGoogle } from '../../../components/icons.tsx';
import { getOidcAuthorizeUrl } from '../api/oidc-authorize.ts';

/** Starts the OpenID Connect sign-in; the provider comes back to /app/oauth. */
export function GoogleButton({
  redirect,
  label = 'Sign in with Google',
}: {
  redirect?: string;
  label?: string;
}) {
  const [loading, setLoading] = useState(false);

  async function start() {
    setLoading(true);
    const result = await getOidcAuthorizeUrl(redirect);
    if (result.ok) {
      window.location.assign(result.data.url);
      return;
    }
    setLoading(false);
  }

  return (
    <Button
      variant="default"
      fullWidth
      leftSection={<IconGoogle />}
      loading={loading}
      onClick={() => void start()}
    >
      {label}
    </Button>
  );
}
