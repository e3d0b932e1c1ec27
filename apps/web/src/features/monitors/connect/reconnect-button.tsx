import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { useLocation } from 'react-router';
import { IconRefresh } from '../../../components/icons.tsx';
import type { ConnectAccount } from '../services/types.ts';
import { startConnect } from './start-connect.ts';

interface ReconnectButtonProps extends Pick<ButtonProps, 'size' | 'variant'> {
  /** The shop's myshopify domain. */
  shop: string;
  /** Reconnects this monitor's shop (the server then points the monitor at the new connection). */
  monitorId?: string | undefined;
  /** How to leave: the monitor form's, which saves its values; by default, coming back to this page. */
  connect?: ConnectAccount | undefined;
}

/**
 * Sends the user to Shopify to approve Vigil's access again. Loading until the browser leaves; a failure was
 * shown by the api client's toast, and the button can be pressed again.
 */
export function ReconnectButton({
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
    const request = { shop, ...(monitorId ? { monitorId } : {}) };
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
      aria-label={`Reconnect ${shop}`}
    >
      Reconnect
    </Button>
  );
}
