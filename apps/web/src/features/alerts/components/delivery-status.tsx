import type { ReactNode } from 'react';
import { Badge, Box, Stack, Text } from '@mantine/core';
import type { Delivery, DeliveryStatus as Status } from '@vigil/contracts';
import { IconMail, IconMessage, IconPhone } from '../../../components/icons.tsx';

type Channel = Delivery['channel'];

const CHANNELS: { channel: Channel; label: string; icon: ReactNode }[] = [
  { channel: 'email', label: 'Email', icon: <IconMail size={12} /> },
  { channel: 'sms', label: 'SMS', icon: <IconMessage size={12} /> },
  { channel: 'call', label: 'Call', icon: <IconPhone size={12} /> },
];

/** Each status in words (the badge's colour only repeats them). */
export const DELIVERY_STATUS_LABELS: Record<Status, string> = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  acknowledged: 'Acknowledged',
  unanswered: 'Not answered',
  failed: 'Failed',
  skipped: 'Skipped',
};

const STATUS_COLORS: Record<Status, string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'teal',
  delivered: 'green',
  acknowledged: 'green',
  unanswered: 'orange',
  failed: 'red',
  skipped: 'gray',
};

/** A status in words for its channel: a call picked up without the key press is not yet an acknowledgement. */
export function deliveryStatusLabel(delivery: Pick<Delivery, 'channel' | 'status'>): string {
  if (delivery.channel === 'call' && delivery.status === 'delivered') return 'Answered, not acknowledged';
  if (delivery.channel === 'call' && delivery.status === 'acknowledged') return 'Answered, acknowledged';
  return DELIVERY_STATUS_LABELS[delivery.status];
}

/** Statuses whose `lastError` says why the person was not reached (or, while pending, why it waits again). */
const EXPLAINED: readonly Status[] = ['pending', 'failed', 'skipped', 'unanswered'];

const FALLBACK_FOR: Record<NonNullable<Delivery['fallbackFor']>, string> = {
  call: 'the unanswered call',
  sms: 'the undelivered SMS',
};

function eventOf(delivery: Delivery): string {
  if (delivery.event === 'opened') return 'Alert';
  if (delivery.event === 'resolved') return 'Recovery notice';
  return 'Repeat alert';
}

interface Row {
  key: string;
  label: string;
  icon: ReactNode;
  latest: Delivery;
}

/**
 * The latest delivery of each channel, and of each stand-in for a call not answered or an SMS not delivered:
 * its status in words, who it went to, and why it did not reach them, all as text (a tooltip alone would be
 * lost on touch screens and to screen readers).
 */
export function DeliveryStatus({ deliveries }: { deliveries: Delivery[] }) {
  const rows: Row[] = [null, 'call', 'sms'].flatMap((fallbackFor) =>
    CHANNELS.flatMap(({ channel, label, icon }) => {
      const latest = deliveries
        .filter((delivery) => delivery.channel === channel && delivery.fallbackFor === fallbackFor)
        .at(-1);
      return latest ? [{ key: `${channel}:${fallbackFor ?? 'own'}`, label, icon, latest }] : [];
    }),
  );
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No alert sent
      </Text>
    );
  }
  return (
    <Stack component="ul" gap={8} m={0} p={0} style={{ listStyle: 'none' }}>
      {rows.map(({ key, label, icon, latest }) => (
        <Box component="li" key={key}>
          <Badge
            color={STATUS_COLORS[latest.status]}
            variant="light"
            radius="sm"
            leftSection={icon}
            tt="none"
          >
            {label}: {deliveryStatusLabel(latest)}
          </Badge>
          {latest.fallbackFor ? (
            <Text size="xs" fw={600} maw={240}>
              {label} instead of {FALLBACK_FOR[latest.fallbackFor]}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" maw={240} style={{ overflowWrap: 'anywhere' }}>
            {eventOf(latest)} to {latest.recipient}
            {latest.attempts > 1 ? `, ${latest.attempts} attempts` : ''}
          </Text>
          {EXPLAINED.includes(latest.status) && latest.lastError ? (
            <Text size="xs" maw={240}>
              {latest.lastError}
            </Text>
          ) : null}
        </Box>
      ))}
    </Stack>
  );
}
