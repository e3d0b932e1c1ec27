import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Container, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { Plan } from '@vigil/contracts';
import { BareHeader } from '../components/bare-header.tsx';
import { ErrorState } from '../components/page-states.tsx';
import { IconAlertTriangle } from '../components/icons.tsx';
import { choosePlan } from '../features/plans/api/choose-plan.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { PlanCard } from '../features/plans/components/plan-card.tsx';
import { formatPlanDate } from '../features/plans/plan-format.ts';
import { NO_PLAN_PERIOD, decideStartup, nowInSeconds } from '../app/startup.ts';
import { useContinue } from '../app/use-continue.ts';
import { useLogout } from '../app/use-logout.ts';
import { parseQuery } from '../lib/query-string.ts';
import { isAbPricingSet } from '../lib/session.ts';
import { useUserInfo } from '../lib/use-user-info.ts';

type PlansState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; plans: Plan[] };

function usePlans() {
  const [state, setState] = useState<PlansState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void getPlans(controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setState(result.ok ? { status: 'ready', plans: result.data.list } : { status: 'failed' });
    });
    return () => controller.abort();
  }, [attempt]);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry };
}

export default function PricingPage() {
  const { search } = useLocation();
  const query = parseQuery(search);
  const user = useUserInfo();
  const { afterUserChange } = useContinue();
  const { logout, loggingOut } = useLogout();
  const { state, retry } = usePlans();
  const [choosing, setChoosing] = useState<string | null>(null);

  async function choose(plan: Plan) {
    setChoosing(plan.name);
    const result = await choosePlan(plan.name);
    setChoosing(null);
    if (result.ok) afterUserChange(result.data);
  }

  const endedOn = query.planExpiresin !== undefined ? formatPlanDate(query.planExpiresin) : null;
  const neverStarted = user?.plan === 'Free' && String(user.planExpiresin) === NO_PLAN_PERIOD;
  // Someone who came here by choice (not sent by a startup rule) gets a way back.
  const free =
    user && decideStartup({ user, query: {}, now: nowInSeconds(), abPricing: isAbPricingSet() }) === null;

  return (
    <>
      <BareHeader onLogout={logout} loggingOut={loggingOut}>
        {free ? (
          <Button component={Link} to="/monitor" variant="default">
            Back to monitors
          </Button>
        ) : null}
      </BareHeader>
      <Container size="lg" component="main" pb={64}>
        <Stack gap="xl">
          <Stack gap="xs" ta="center" align="center">
            <Title order={1}>Choose your plan</Title>
            <Text c="dimmed" maw={620}>
              {neverStarted
                ? 'One last step: pick a plan to start monitoring. You can change it later from Subscription.'
                : 'Every plan watches your storefront, shop and ad accounts, and alerts you the moment something breaks.'}
            </Text>
          </Stack>

          {query.planExpiresin !== undefined ? (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle />}
              title="Your plan period has ended"
              role="status"
            >
              {endedOn
                ? `Your plan period ended on ${endedOn}. Choose a plan to keep your monitors running.`
                : 'Choose a plan to keep your monitors running.'}
            </Alert>
          ) : null}

          {state.status === 'loading' ? (
            <SimpleGrid
              cols={{ base: 1, sm: 2, md: 3 }}
              spacing="lg"
              aria-busy="true"
              aria-label="Loading plans"
            >
              {[0, 1, 2].map((n) => (
                <Skeleton key={n} h={460} radius="lg" />
              ))}
            </SimpleGrid>
          ) : null}

          {state.status === 'failed' ? (
            <ErrorState title="The plans could not be loaded" onRetry={retry}>
              Check your connection and try again.
            </ErrorState>
          ) : null}

          {state.status === 'ready' && state.plans.length === 0 ? (
            <Paper withBorder p="xl" radius="lg" ta="center">
              <Text fw={600}>No plans are offered right now.</Text>
              <Text c="dimmed" size="sm">
                Please try again later, or write to us and we will set up your account.
              </Text>
            </Paper>
          ) : null}

          {state.status === 'ready' && state.plans.length > 0 ? (
            <SimpleGrid cols={{ base: 1, sm: 2, md: Math.min(state.plans.length, 4) }} spacing="lg">
              {state.plans.map((plan) => (
                <PlanCard
                  key={plan.name}
                  plan={plan}
                  current={user?.plan === plan.name && !neverStarted}
                  choosing={choosing === plan.name}
                  disabled={choosing !== null && choosing !== plan.name}
                  onChoose={(chosen) => void choose(chosen)}
                />
              ))}
            </SimpleGrid>
          ) : null}
        </Stack>
      </Container>
    </>
  );
}
