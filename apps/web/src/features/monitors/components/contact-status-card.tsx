import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Box,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import type { ContactState, ContactStatus, MonitorContacts } from '@vigil/contracts';
import { IconMail, IconMessage, IconPhone } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { useRequest } from '../../../lib/use-request.ts';
import { getContactStatus } from '../api/get-contact-status.ts';
import { monitorEditPath } from '../paths.ts';
import { formatCount } from '../../../lib/format-time.ts';

const CHANNELS: Record<ContactStatus['channel'], { label: string; icon: ReactNode }> = {
  call: { label: 'Phone call', icon: <IconPhone size={16} /> },
  sms: { label: 'SMS', icon: <IconMessage size={16} /> },
  email: { label: 'Email', icon: <IconMail size={16} /> },
};

/** Each state in words; the colour only repeats them. */
export const CONTACT_STATE_LABELS: Record<ContactState, { label: string; color: string }> = {
  ok: { label: 'Gets alerts', color: 'green' },
  unverified: { label: 'Not verified', color: 'yellow' },
  opted_out: { label: 'Replied STOP', color: 'red' },
  quota_exhausted: { label: 'Monthly limit reached', color: 'orange' },
  not_in_plan: { label: 'Not in your plan', color: 'gray' },
  not_configured: { label: 'Not set up', color: 'gray' },
};

const PLAN_STATES: readonly ContactState[] = ['not_in_plan', 'quota_exhausted'];

function ContactRow({ contact }: { contact: ContactStatus }) {
  const channel = CHANNELS[contact.channel];
  const state = CONTACT_STATE_LABELS[contact.state];
  return (
    <Box component="li" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          {channel.icon}
          <Text size="sm" fw={600}>
            {channel.label}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {contact.address}
          </Text>
        </Group>
        <Badge color={state.color} variant="light" radius="sm" tt="none">
          {state.label}
        </Badge>
      </Group>
      <Text size="sm" c={contact.state === 'ok' ? 'dimmed' : undefined} mt={4}>
        {contact.message}
        {PLAN_STATES.includes(contact.state) ? (
          <>
            {' '}
            <Anchor component={Link} to="/pricing" size="sm">
              Compare plans
            </Anchor>
          </>
        ) : null}
      </Text>
    </Box>
  );
}

function Usage({ label, used, limit }: { label: string; used: number; limit: number }) {
  if (limit <= 0) {
    return (
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          Not included in your plan
        </Text>
      </Stack>
    );
  }
  const share = Math.min(100, Math.round((used / limit) * 100));
  const color = used >= limit ? 'red' : share >= 80 ? 'orange' : 'vigil';
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm">
          {formatCount(used)} of {formatCount(limit)} used
        </Text>
      </Group>
      <Progress value={share} color={color} aria-label={`${label} used this month`} />
    </Stack>
  );
}

function Contacts({ data, monitorId }: { data: MonitorContacts; monitorId: string }) {
  return (
    <Stack gap="md">
      {data.list.length === 0 ? (
        <Text size="sm">
          No channel is ticked, so nobody is alerted; incidents still show on the Alerts page.{' '}
          <Anchor component={Link} to={monitorEditPath(monitorId)} size="sm">
            Choose who gets alerts
          </Anchor>
        </Text>
      ) : (
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.list.map((contact) => (
            <ContactRow key={`${contact.channel}:${contact.address}`} contact={contact} />
          ))}
        </Box>
      )}
      <Stack gap="xs">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          This month, all your monitors
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg">
          <Usage label="SMS" used={data.usage.sms.used} limit={data.usage.sms.limit} />
          <Usage label="Calls" used={data.usage.calls.used} limit={data.usage.calls.limit} />
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}

/** Who a monitor's alerts reach: each ticked contact with why it does (or does not), and the month's quota. */
export function ContactStatusCard({ monitorId }: { monitorId: string }) {
  const contacts = useRequest(`contact-status:${monitorId}`, (signal) => getContactStatus(monitorId, signal));
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="monitor-contacts">
      <Title order={2} fz="lg" id="monitor-contacts" mb="md">
        Who gets alerts
      </Title>
      {contacts.data !== undefined ? (
        <Contacts data={contacts.data} monitorId={monitorId} />
      ) : contacts.status === 'failed' ? (
        <ErrorState title="Who gets alerts could not be loaded" onRetry={contacts.reload} />
      ) : (
        <Skeleton h={96} radius="md" aria-label="Loading who gets alerts" />
      )}
    </Card>
  );
}
