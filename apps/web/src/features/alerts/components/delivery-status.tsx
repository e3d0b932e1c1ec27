import type { ReactNode } from 'react';
import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import type { Delivery } from '@vigil/contracts';
import { IconMail, IconMessage, IconPhone } from '../../../components/icons.tsx';

type Channel = Delivery['channel'];

const CHANNELS: { channel: Channel; label: string; icon: ReactNode }[] = [
  { channel: 'email', label: 'Email', icon: <IconMail size={12} /> },
  { channel: 'sms', label: 'SMS', icon: <IconMessage size={12} /> },
  { channel: 'call', label: 'Call', icon: <IconPhone size={12} /> },
];

const STATUS_COLORS: Record<Delivery['status'], string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  skipped: 'gray',
};

function describe(delivery: Delivery): string {
  const event =
    delivery.event === 'opened'
      ? 'alert'
      : delivery.event === 'resolved'
        ? 'recovery notice'
        : 'repeat alert';
  const tries = delivery.attempts > 1 ? `, ${delivery.attempts} attempts` : '';
  return `Latest: ${event} to ${delivery.recipient}${tries}`;
}

/**
 * One badge per channel that had deliveries, with the status of its latest one; a failure or a skip shows
 * its reason as text (a tooltip alone would be lost on touch screens and to screen readers).
 */
export function DeliveryStatus({ deliveries }: { deliveries: Delivery[] }) {
  const rows = CHANNELS.flatMap(({ channel, label, icon }) => {
    const latest = deliveries.filter((delivery) => delivery.channel === channel).at(-1);
    return latest ? [{ channel, label, icon, latest }] : [];
  });
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No alert sent
      </Text>
    );
  }
  return (
    <Stack gap={6} align="flex-start">
      {rows.map(({ channel, label, icon, latest }) => (
        <div key={channel}>
          <Tooltip label={describe(latest)} withArrow>
            <Badge
              color={STATUS_COLORS[latest.status]}
              variant="light"
              radius="sm"
              leftSection={icon}
              tt="none"
            >
              {label}: {latest.status}
            </Badge>
          </Tooltip>
          {(latest.status === 'failed' || latest.status === 'skipped') && latest.lastError ? (
            <Text size="xs" c="dimmed" maw={220}>
              {latest.lastError}
            </Text>
          ) : null}
        </div>
      ))}
    </Stack>
  );
}
