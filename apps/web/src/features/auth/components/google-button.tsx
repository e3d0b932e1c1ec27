import { useLayoutEffect, useState } from 'react';
import { Button } from '@mantine/core';
import { IconGoogle } from '../../../components/icons.tsx';
import { PRERENDERED_PRESS, takePrerenderedPress, usePrerendering } from '../../../lib/prerendered.ts';
import { getOidcAuthorizeUrl } from '../api/oidc-authorize.ts';

const PRESS = 'google';

/** Starts the OpenID Connect sign-in; the provider comes back to /app/oauth. */
export function GoogleButton({
  redirect,
  label = 'Sign in with Google',
}: {
  redirect?: string;
  label?: string;
}) {
  const [loading, setLoading] = useState(false);
  const prerendering = usePrerendering();

  async function start() {
    setLoading(true);
    const result = await getOidcAuthorizeUrl(redirect);
    if (result.ok) {
      window.location.assign(result.data.url);
      return;
    }
    setLoading(false);
  }

  // Pressed on the prerendered login page before it was live: the press is made now.
  useLayoutEffect(() => {
    if (takePrerenderedPress(PRESS)) void start();
    // Once, as the live button mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Button
      variant="default"
      fullWidth
      leftSection={<IconGoogle />}
      loading={loading}
      onClick={() => void start()}
      {...(prerendering ? { [PRERENDERED_PRESS]: PRESS } : {})}
    >
      {label}
    </Button>
  );
}
