import type { Plan, PlanCoverage, PlanOrderAccounts, Provider } from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { findPlan, PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import { accountCoverage } from './plan-limits.ts';

/** Shops when every account is a Shopify shop, ad accounts when every one is Google's or Meta's. */
function accountNouns(providers: string[]): [string, string] {
  if (providers.every((provider) => provider === 'shopify')) return ['shop', 'shops'];
  if (providers.every((provider) => provider === 'google' || provider === 'meta'))
    return ['ad account', 'ad accounts'];
  return ['account', 'accounts'];
}

/**
 * "Starter covers 1 of your 2 shops and all 4 monitors.", "Pro covers all 2 of your accounts and all 4
 * monitors.": what a plan covers of what the person has, in one sentence.
 */
export function coverageSummary(
  plan: Plan,
  accounts: { providers: string[]; covered: number },
  monitors: { total: number; covered: number },
): string {
  const total = accounts.providers.length;
  const [one, many] = accountNouns(accounts.providers);
  const accountsPart =
    accounts.covered === total
      ? total === 1
        ? `your ${one}`
        : `all ${total} of your ${many}`
      : `${accounts.covered} of your ${total} ${total === 1 ? one : many}`;
  const monitorsPart =
    monitors.covered === monitors.total
      ? monitors.total === 1
        ? 'your monitor'
        : `all ${monitors.total} monitors`
      : `${monitors.covered} of your ${monitors.total} monitors`;
  if (total === 0 && monitors.total === 0) {
    return `${plan.name} runs up to ${plan.maxMonitors} monitors and ${plan.maxAccounts} connected ${plan.maxAccounts === 1 ? 'account' : 'accounts'}.`;
  }
  if (total === 0) return `${plan.name} covers ${monitorsPart}.`;
  if (monitors.total === 0) return `${plan.name} covers ${accountsPart}.`;
  return `${plan.name} covers ${accountsPart} and ${monitorsPart}.`;
}

/**
 * What each plan would cover of the person's connected accounts and monitors, counted as limits are applied
 * (plan-limits.ts): accounts oldest first; monitors oldest first, those on an uncovered account left out.
 * Every monitor is counted, paused ones too, since an order is about running them all.
 */
export function createPlanCoverageService(deps: { store: Store }) {
  const { store } = deps;
  return {
    async coverage(session: AuthSession, planName?: string): Promise<PlanOrderAccounts> {
      let plans: readonly Plan[] = PLAN_CATALOGUE;
      if (planName !== undefined) {
        const plan = findPlan(planName);
        if (!plan) {
          throw new AppError(
            'INVALID',
            `There is no plan called "${planName.trim().slice(0, 40)}". Choose ${PLAN_CATALOGUE.map((p) => p.name).join(', ')}.`,
            { details: [{ path: 'plan', message: 'Choose one of the plans on the pricing page.' }] },
          );
        }
        plans = [plan];
      }
      const accounts = await store.planLimits.accountsOf(session.userId);
      const monitors = await store.planLimits.monitorsOf(session.userId);
      const providers = accounts.map((account) => account.provider);
      return {
        accounts: accounts.map((account) => ({
          connectionId: account.id,
          provider: account.provider as Provider,
          account: account.account,
          name: account.name,
          monitors: account.monitors,
        })),
        monitorCount: monitors.length,
        plans: plans.map((plan): PlanCoverage => {
          const { covered, fits } = accountCoverage(plan, accounts);
          const monitorsCovered = Math.min(
            monitors.filter((monitor) => fits(monitor.connectionId)).length,
            plan.maxMonitors,
          );
          return {
            plan: plan.name,
            accountLimit: plan.maxAccounts,
            monitorLimit: plan.maxMonitors,
            accountsCovered: covered.size,
            monitorsCovered,
            coversAll: covered.size === accounts.length && monitorsCovered === monitors.length,
            summary: coverageSummary(
              plan,
              { providers, covered: covered.size },
              { total: monitors.length, covered: monitorsCovered },
            ),
          };
        }),
      };
    },
  };
}
export type PlanCoverageService = ReturnType<typeof createPlanCoverageService>;
