import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '@vigil/contracts';
import { IconCheck } from '../../../components/icons.tsx';
import { formatInterval } from '../../../lib/format-time.ts';
import { formatChannels, formatPrice, formatQuota } from '../plan-format.ts';

interface PlanCardProps {
  plan: Plan;
  current: boolean;
  choosing: boolean;
  onChoose: (plan: Plan) => void;
  disabled?: boolean;
}

export function PlanCard({ plan, current, choosing, onChoose, disabled }: PlanCardProps) {
  const headingId = `plan-${plan.name.toLowerCase().replace(/\W+/g, '-')}`;
  const facts: [string, string][] = [
    ['Monitors', plan.maxMonitors.toLocaleString('en-US')],
    ['Shortest check interval', formatInterval(plan.minIntervalSeconds)],
    ['Alert channels', formatChannels(plan.channels)],
    ['SMS', formatQuota(plan.smsPerMonth, 'SMS')],
    ['Calls', formatQuota(plan.callsPerMonth, 'calls')],
  ];
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="section"
      aria-labelledby={headingId}
      shadow={current ? 'md' : 'xs'}
      style={current ? { borderColor: 'var(--mantine-color-vigil-6)', borderWidth: 2 } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} fz="xl" id={headingId}>
            {plan.name}
          </Title>
          {current ? (
            <Badge variant="light" size="sm">
              Current plan
            </Badge>
          ) : null}
        </Group>
        <Group gap={4} align="baseline">
          <Text fz={34} fw={800} lh={1}>
            {formatPrice(plan.priceMonthlyCents)}
          </Text>
          <Text c="dimmed" size="sm">
            / month
          </Text>
        </Group>
        {!plan.checkout ? (
          <Text size="sm" c="dimmed">
            {plan.periodDays}-day period, renewable when it ends.
          </Text>
        ) : null}
        <Stack gap={6} component="dl" m={0}>
          {facts.map(([term, value]) => (
            <Group key={term} justify="space-between" gap="xs" wrap="nowrap">
              <Text component="dt" size="sm" c="dimmed">
                {term}
              </Text>
              <Text component="dd" size="sm" fw={600} m={0} ta="right">
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
        {plan.highlights.length > 0 ? (
          <List
            spacing={6}
            size="sm"
            listStyleType="none"
            icon={<IconCheck size={16} color="var(--mantine-color-vigil-7)" />}
            aria-label={`${plan.name} highlights`}
          >
            {plan.highlights.map((highlight) => (
              <List.Item key={highlight}>{highlight}</List.Item>
            ))}
          </List>
        ) : null}
        <Stack gap={6} mt="auto">
          {plan.checkout ? (
            <>
              <Button variant="light" disabled fullWidth aria-describedby={`${headingId}-checkout`}>
                Opens with billing
              </Button>
              <Text size="xs" c="dimmed" id={`${headingId}-checkout`} ta="center">
                Paid plans are bought through online checkout, which opens when billing launches in Vigil.
              </Text>
            </>
          ) : (
            <Button fullWidth loading={choosing} disabled={disabled} onClick={() => onChoose(plan)}>
              Choose {plan.name}
            </Button>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
