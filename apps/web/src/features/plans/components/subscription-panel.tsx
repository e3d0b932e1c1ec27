import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SubscriptionInfo } from '@vigil/contracts';
import { IconAlertTriangle, IconCreditCard } from '../../../components/icons.tsx';
import { PERIOD_WORDS, describeSubscription } from '../subscription-format.ts';

// Mantine's light red and grey badges write in shade 6, under 4.5:1 on their background; these read above it.
const BADGE_TEXT: Record<string, string | undefined> = { red: 'red.9', gray: 'gray.8' };

interface SubscriptionPanelProps {
  subscription: SubscriptionInfo;
  nowSeconds: number;
  onManageBilling: () => void;
  openingPortal: boolean;
}

/** "Your plan": the plan the person has, its state in words, and Manage billing (Stripe's portal). */
export function SubscriptionPanel({
  subscription,
  nowSeconds,
  onManageBilling,
  openingPortal,
}: SubscriptionPanelProps) {
  const summary = describeSubscription(subscription, nowSeconds);
  const period = subscription.period && subscription.state !== 'free' ? subscription.period : null;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="your-plan"
    >
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Title order={2} fz="sm" c="dimmed" tt="uppercase" id="your-plan">
            Your plan
          </Title>
          <Group gap="xs">
            <Text fz="xl" fw={700}>
              {subscription.plan}
            </Text>
            <Badge color={summary.color} variant="light" c={BADGE_TEXT[summary.color]}>
              {summary.label}
            </Badge>
            {period ? (
              <Text size="sm" c="dimmed">
                Billed {PERIOD_WORDS[period].adverb}
              </Text>
            ) : null}
          </Group>
          {summary.warning ? null : <Text size="sm">{summary.text}</Text>}
        </Stack>
        {subscription.canManageBilling ? (
          <Button
            variant="default"
            leftSection={<IconCreditCard size={16} />}
            loading={openingPortal}
            onClick={onManageBilling}
          >
            Manage billing
          </Button>
        ) : null}
      </Group>
      {summary.warning ? (
        <Alert
          mt="md"
          color="red"
          variant="light"
          icon={<IconAlertTriangle />}
          title="Update your card"
          role="alert"
        >
          {summary.text}
        </Alert>
      ) : null}
    </Paper>
  );
}
