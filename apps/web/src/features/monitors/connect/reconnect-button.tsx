import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import type { ConnectedService } from '@vigil/contracts';
import { useLocation } from 'react-router';
import { IconRefresh } from '../../../components/icons.tsx';
import type { ConnectAccount } from '../services/types.ts';
import { startConnect } from './start-connect.ts';

interface ReconnectButtonProps extends Pick<ButtonProps, 'size' | 'variant'> {
  service: ConnectedService;
  /** Names the account for screen readers: a shop's domain, a Google account's email, a Facebook user. */
  label: string;
  /** Shopify: the shop's myshopify domain to reconnect. */
  shop?: string | undefined;
  /** Reconnects this monitor's account (the server then points the monitor at the new connection). */
  monitorId?: string | undefined;
  /** How to leave: the monitor form's, which saves its values; by default, coming back to this page. */
  connect?: ConnectAccount | undefined;
}

/**
 * Sends the user to the provider to approve Vigil's access again. Loading until the browser leaves; a failure
 * was shown by the api client's toast, and the button can be pressed again.
 */
export function ReconnectButton({
  service,
  label,
  shop,
  monitorId,
  connect,
  size = 'xs',
  variant = 'filled',
}: ReconnectButtonProps) {
  const { pathname, search } = useLocation();
  const [busy, setBusy] = useState(false);

  async function reconnect() {
    setBusy(true);
    const request = { service, ...(shop ? { shop } : {}), ...(monitorId ? { monitorId } : {}) };
    await (connect ? connect(request) : startConnect({ ...request, returnTo: `${pathname}${search}` }));
    setBusy(false);
  }

  return (
    <Button
      size={size}
      variant={variant}
      leftSection={<IconRefresh size={14} />}
      loading={busy}
      onClick={() => void reconnect()}
      aria-label={`Reconnect ${label}`}
    >
      Reconnect
    </Button>
  );
}
