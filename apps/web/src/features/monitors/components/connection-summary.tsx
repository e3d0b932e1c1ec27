import type { ReactNode } from 'react';
import { Group, Stack, Text } from '@mantine/core';
import type { Connection, Provider } from '@vigil/contracts';
import { IconBrandFacebook, IconBuildingStore, IconGoogle } from '../../../components/icons.tsx';
import { connectionReason } from '../connect/connection-format.ts';
import { ConnectionStatusBadge } from './connection-status-badge.tsx';

/** "No monitors use it yet", "Used by 1 monitor", "Used by 3 monitors". */
export function monitorsUsing(count: number): string {
  if (count === 0) return 'No monitors use it yet';
  return count === 1 ? 'Used by 1 monitor' : `Used by ${count} monitors`;
}

const PROVIDER_ICONS: Record<Provider, ReactNode> = {
  shopify: <IconBuildingStore size={16} />,
  google: <IconGoogle size={16} />,
  meta: <IconBrandFacebook size={16} />,
};

/**
 * A connected account as a person reads it: its name and status, a shop's address with `detail` after it, and
 * why it stopped working when it did. (A Google or Facebook account's name is its email or the person's name.)
 */
export function ConnectionSummary({ connection, detail }: { connection: Connection; detail: string }) {
  const address = connection.provider === 'shopify' ? connection.account : '';
  const line = [address, detail].filter(Boolean).join(' · ');
  return (
    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
      <Group gap="xs">
        {PROVIDER_ICONS[connection.provider]}
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {connection.name}
        </Text>
        <ConnectionStatusBadge status={connection.status} />
      </Group>
      {line ? (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ) : null}
      {connection.status !== 'active' ? (
        <Text size="sm">{connectionReason(connection.provider, connection)}</Text>
      ) : null}
    </Stack>
  );
}
