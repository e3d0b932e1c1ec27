import type { ReactNode } from 'react';
import { Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { BillingPeriod, Plan, PlanCoverage } from '@vigil/contracts';
import { IconAlertTriangle, IconCheck } from '../../../components/icons.tsx';
import { formatCount, formatInterval } from '../../../lib/format-time.ts';
import { formatChannels, formatPrice, formatQuota, planHeadingId, yearlySaving } from '../plan-format.ts';

interface PlanCardProps {
  plan: Plan;
  /** The price shown on a paid plan: per month or per year. */
  period: BillingPeriod;
  current: boolean;
  /** What this plan would hold of the person's accounts and monitors; null when there is nothing to say. */
  coverage: PlanCoverage | null;
  /** The card's action: choosing, buying, switching, or a word on why not. */
  children: ReactNode;
}

function Price({ plan, period }: { plan: Plan; period: BillingPeriod }) {
  const yearly = plan.checkout && period === 'year';
  const saving = yearly ? yearlySaving(plan) : 0;
  return (
    <Stack gap={2}>
      <Group gap={6} align="baseline">
        <Text fz={34} fw={800} lh={1}>
          {formatPrice(yearly ? plan.priceYearlyCents : plan.priceMonthlyCents)}
        </Text>
        <Text c="dimmed" size="sm">
          {yearly ? 'per year' : '/ month'}
        </Text>
      </Group>
      {saving > 0 ? (
        <Text size="sm" c="var(--mantine-color-vigil-8)" fw={600}>
          Save {formatPrice(saving)} compared with 12 monthly payments
        </Text>
      ) : null}
    </Stack>
  );
}

export function PlanCard({ plan, period, current, coverage, children }: PlanCardProps) {
  const headingId = planHeadingId(plan.name);
  const facts: [string, string][] = [
    ['Monitors', formatCount(plan.maxMonitors)],
    ['Connected accounts', formatCount(plan.maxAccounts)],
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
        <Price plan={plan} period={period} />
        {!plan.checkout ? (
          <Text size="sm" c="dimmed">
            {plan.periodDays}-day period, renewable when it ends.
          </Text>
        ) : null}
        {coverage ? (
          <Group gap={6} wrap="nowrap" align="flex-start">
            {coverage.coversAll ? null : (
              <IconAlertTriangle size={16} color="var(--vigil-color-warning-text)" style={{ flex: 'none' }} />
            )}
            <Text size="sm" c={coverage.coversAll ? 'dimmed' : 'var(--vigil-color-warning-text)'}>
              {coverage.summary}
            </Text>
          </Group>
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
          {children}
        </Stack>
      </Stack>
    </Card>
  );
}
