import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { UserInfo } from '@vigil/contracts';
import { PageHeader } from '../components/page-header.tsx';
import { ChangePasswordForm } from '../features/auth/components/change-password-form.tsx';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import { UserInfoForm } from '../features/user/components/user-info-form.tsx';
import { ConnectedAccountsCard } from '../features/monitors/components/connected-accounts-card.tsx';
import { nowInSeconds } from '../app/startup.ts';
import { setUserInfo } from '../lib/session.ts';
import { useUserInfo } from '../lib/use-user-info.ts';
import { SectionCard } from '../components/section-card.tsx';

function PlanSummary({ user }: { user: UserInfo }) {
  const date = formatPlanDate(user.planExpiresin);
  const ended = date !== null && nowInSeconds() > Number(user.planExpiresin);
  return (
    <Group justify="space-between" align="center" gap="md">
      <Stack gap={4}>
        <Group gap="xs">
          <Text fw={700} fz="lg">
            {user.plan}
          </Text>
          <Badge variant="light" color={date === null ? 'gray' : ended ? 'orange' : 'vigil'}>
            {date === null ? 'Not started' : ended ? 'Ended' : 'Active'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {date === null
            ? 'No plan period has started yet.'
            : ended
              ? `The current period ended on ${date}.`
              : `The current period runs until ${date}.`}
        </Text>
      </Stack>
      <Button component={Link} to="/pricing" variant="light">
        Subscription
      </Button>
    </Group>
  );
}

export default function SettingsPage() {
  const user = useUserInfo();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title="Settings"
        description={
          <>
            Signed in as{' '}
            <Text span fw={600}>
              {user.email}
            </Text>
          </>
        }
      />
      <SectionCard
        id="settings-contact"
        title="Contact details"
        description="Used for your alerts and for reaching you about your account."
      >
        <UserInfoForm user={user} onSaved={setUserInfo} />
      </SectionCard>
      <SectionCard
        id="settings-password"
        title="Password"
        description="Changing it signs you out on your other devices."
      >
        <ChangePasswordForm />
      </SectionCard>
      <SectionCard
        id="settings-accounts"
        title="Connected accounts"
        description="The Shopify shops, Google accounts and Facebook accounts your monitors read through."
      >
        <ConnectedAccountsCard />
      </SectionCard>
      <SectionCard id="settings-plan" title="Plan">
        <PlanSummary user={user} />
        <Text size="sm" c="dimmed">
          Plans, prices and limits are on the{' '}
          <Anchor component={Link} to="/pricing">
            Subscription
          </Anchor>{' '}
          page.
        </Text>
      </SectionCard>
    </Stack>
  );
}
