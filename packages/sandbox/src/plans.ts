import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from './html.ts';

/**
 * What the Plans control needs from the app, since the sandbox has no database: the plan names to offer and
 * a way to put an account on one. Paid plans start only through checkout, which does not exist yet, so
 * without this a demo could never try SMS or call alerts.
 */
export interface SandboxPlans {
  names: string[];
  /** Puts the account with that email on the plan; `message` tells a person the outcome. */
  grant(email: string, plan: string): Promise<{ ok: boolean; message: string }>;
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

async function start(plans: SandboxPlans, email: string, plan: string) {
  if (!email) return { ok: false, message: "Enter the account's email." };
  if (!plans.names.includes(plan)) return { ok: false, message: `Choose a plan: ${plans.names.join(', ')}.` };
  return plans.grant(email, plan);
}

interface Shown {
  notice?: string;
  email?: string;
  plan?: string;
}

function plansPage(plans: SandboxPlans, basePath: string, shown: Shown): string {
  const options = plans.names
    .map(
      (name) =>
        `<option value="${escapeHtml(name)}"${name === shown.plan ? ' selected' : ''}>${escapeHtml(name)}</option>`,
    )
    .join('');
  return `${shown.notice ? `<p role="status" class="notice">${escapeHtml(shown.notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
<section aria-labelledby="plans-heading">
<h1 id="plans-heading">Start a plan without checkout (sandbox only)</h1>
<p class="muted">Puts an account on a plan for the plan's period (30 days for the paid ones), as paying at
checkout will, so SMS and call alerts can be tried before billing exists. There is no such page without the sandbox.</p>
<form method="post" action="${escapeHtml(`${basePath}/plans`)}" aria-labelledby="plans-heading">
<label for="plan-email">Account email</label>
<input id="plan-email" name="email" type="email" required autocomplete="off" value="${escapeHtml(shown.email ?? '')}">
<label for="plan-name">Plan</label>
<select id="plan-name" name="plan" required>
<option value=""${shown.plan ? '' : ' selected'} disabled>Choose a plan</option>${options}
</select>
<p><button class="primary" type="submit">Start plan</button></p>
</form>
</section>`;
}

/** The Plans line on the sandbox home page. */
export function plansSummary(basePath: string): string {
  return `<section aria-labelledby="plans-summary-heading"><h2 id="plans-summary-heading">Plans</h2>
<p>Paid plans start through checkout, which does not exist yet. <a href="${escapeHtml(`${basePath}/plans`)}">Start a plan without checkout</a> to try SMS and call alerts.</p></section>`;
}

/**
 * `${basePath}/plans`: a form that starts a plan for an account (posts and redirects back with the outcome),
 * and `POST ${basePath}/api/plans {email, plan}` for tests, answering `{ data: { message } }` or
 * `400 { code, message }`.
 */
export function registerPlanRoutes(app: FastifyInstance, plans: SandboxPlans, basePath: string): void {
  app.get<{ Querystring: Shown }>('/plans', async (request, reply) =>
    reply.type('text/html').send(page('Plans — Vigil sandbox', plansPage(plans, basePath, request.query))),
  );

  app.post('/plans', async (request, reply) => {
    const email = field(request.body, 'email');
    const plan = field(request.body, 'plan');
    const { message } = await start(plans, email, plan);
    const query = new URLSearchParams({ notice: message, email, plan });
    return reply.redirect(`${basePath}/plans?${query}`, 303);
  });

  app.post('/api/plans', async (request, reply) => {
    const outcome = await start(plans, field(request.body, 'email'), field(request.body, 'plan'));
    if (!outcome.ok) return reply.code(400).send({ code: 'INVALID', message: outcome.message });
    return { data: { message: outcome.message } };
  });
}
