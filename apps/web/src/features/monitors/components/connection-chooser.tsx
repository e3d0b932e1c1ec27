import { useId, type ReactNode } from 'react';
import { Group, Paper, Radio, Stack, Text } from '@mantine/core';
import type { Connection } from '@vigil/contracts';
import { accountLabel, SERVICE_OF_PROVIDER } from '../connect/connection-format.ts';
import { ReconnectButton } from '../connect/reconnect-button.tsx';
import type { ConnectAccount } from '../services/types.ts';
import { ConnectionStatusBadge } from './connection-status-badge.tsx';
import { ConnectionSummary, monitorsUsing } from './connection-summary.tsx';

/**
 * Which connected account a monitor reads through: the user's working connections as radio cards, those that
 * stopped working with their reason and a Reconnect button (not choosable), and `children` to connect another.
 */
export function ConnectionChooser({
  label,
  connections,
  value,
  onChange,
  error,
  connect,
  reconnectMonitorId,
  children,
}: {
  /** "Shop", "Google account". */
  label: string;
  connections: Connection[];
  value: string;
  onChange: (connectionId: string) => void;
  error?: string | undefined;
  connect: ConnectAccount;
  /** The edited monitor's own connection reconnects for it. */
  reconnectMonitorId: (connection: Connection) => string | undefined;
  /** How to connect another account. */
  children: ReactNode;
}) {
  const errorId = useId();
  const working = connections.filter((connection) => connection.status === 'active');
  const broken = connections.filter((connection) => connection.status !== 'active');

  return (
    <Stack gap="md">
      {working.length > 0 ? (
        <Radio.Group
          label={label}
          value={value}
          onChange={onChange}
          aria-describedby={error ? errorId : undefined}
        >
          <Stack gap="xs" mt="xs">
            {working.map((connection) => (
              <Radio.Card key={connection.connectionId} value={connection.connectionId} radius="md" p="sm">
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={2} />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {connection.name}
                      </Text>
                      <ConnectionStatusBadge status={connection.status} />
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {connection.provider === 'shopify' ? `${connection.account} · ` : ''}
                      {monitorsUsing(connection.monitors)}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
      ) : null}

      {broken.map((connection) => (
        <Paper
          key={connection.connectionId}
          withBorder
          radius="md"
          p="sm"
          role="group"
          aria-label={`${connection.name}: ${connection.status === 'lost' ? 'connection lost' : 'disconnected'}`}
        >
          <Group justify="space-between" align="flex-start" gap="sm">
            <ConnectionSummary
              connection={connection}
              detail={connection.connectionId === value ? 'chosen for this monitor' : ''}
            />
            <ReconnectButton
              service={SERVICE_OF_PROVIDER[connection.provider]}
              label={accountLabel(connection)}
              shop={connection.provider === 'shopify' ? connection.account : undefined}
              monitorId={reconnectMonitorId(connection)}
              connect={connect}
            />
          </Group>
        </Paper>
      ))}

      {error ? (
        <Text size="sm" c="red" role="alert" id={errorId}>
          {error}
        </Text>
      ) : null}

      {children}
    </Stack>
  );
}
