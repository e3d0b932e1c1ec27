import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxPlans } from './index.ts';

/** The app's side of the control: one account, and a record of what was granted. */
function fakePlans() {
  const granted: { email: string; plan: string }[] = [];
  const plans: SandboxPlans = {
    names: ['Free', 'Pro', 'Business'],
    async grant(email, plan) {
      if (email.toLowerCase() !== 'merchant@shop.example') {
        return { ok: false, message: 'No account uses that email.' };
      }
      granted.push({ email, plan });
      return { ok: true, message: `merchant@shop.example is on ${plan} until 2026-12-22.` };
    },
  };
  return { plans, granted };
}

async function startApp(
  plans: SandboxPlans | undefined,
): Promise<{ app: FastifyInstance; sandbox: Sandbox }> {
  const sandbox = createSandbox({
    publicUrl: 'http://localhost:3000',
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    ...(plans ? { plans } : {}),
  });
  const app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  await app.ready();
  return { app, sandbox };
}

describe('sandbox plans control', () => {
  const fake = fakePlans();
  let app: FastifyInstance;
  let sandbox: Sandbox;

  beforeAll(async () => {
    ({ app, sandbox } = await startApp(fake.plans));
  });

  afterAll(async () => {
    await app.close();
    await sandbox.stop();
  });

  beforeEach(() => {
    fake.granted.length = 0;
  });

  it('links the plans page from the sandbox home page', async () => {
    const home = await app.inject({ url: '/sandbox' });
    expect(home.body).toContain('<a href="/sandbox/plans">Start a plan without checkout</a>');
  });

  it('shows a form with the email and the plan names', async () => {
    const form = await app.inject({ url: '/sandbox/plans' });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Start a plan without checkout (sandbox only)');
    expect(form.body).toContain('<label for="plan-email">Account email</label>');
    expect(form.body).toMatch(/<option value="Pro">Pro<\/option><option value="Business">Business<\/option>/);
    expect(form.body).toContain('<button class="primary" type="submit">Start plan</button>');
    expect(form.body).not.toContain('role="status"');
  });

  it('starts the plan from the form and shows the outcome, keeping what was entered', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/sandbox/plans',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=+merchant%40shop.example+&plan=Pro',
    });
    expect(posted.statusCode).toBe(303);
    expect(fake.granted).toEqual([{ email: 'merchant@shop.example', plan: 'Pro' }]);

    const shown = await app.inject({ url: posted.headers.location! });
    expect(shown.body).toContain(
      '<p role="status" class="notice">merchant@shop.example is on Pro until 2026-12-22.</p>',
    );
    expect(shown.body).toContain('value="merchant@shop.example"');
    expect(shown.body).toContain('<option value="Pro" selected>Pro</option>');
  });

  it('says so on the form when no account uses the email', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/sandbox/plans',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=nobody%40shop.example&plan=Business',
    });
    const shown = await app.inject({ url: posted.headers.location! });
    expect(shown.body).toContain('<p role="status" class="notice">No account uses that email.</p>');
    expect(fake.granted).toEqual([]);
  });

  it('starts a plan through the JSON API', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox/api/plans',
      payload: { email: 'merchant@shop.example', plan: 'Business' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: { message: 'merchant@shop.example is on Business until 2026-12-22.' },
    });
    expect(fake.granted).toEqual([{ email: 'merchant@shop.example', plan: 'Business' }]);
  });

  it('answers 400 through the JSON API for an unknown account, a missing email or a plan not offered', async () => {
    const attempts = [
      [{ email: 'nobody@shop.example', plan: 'Pro' }, 'No account uses that email.'],
      [{ plan: 'Pro' }, "Enter the account's email."],
      [{ email: 'merchant@shop.example', plan: 'Gold' }, 'Choose a plan: Free, Pro, Business.'],
    ] as const;
    for (const [payload, message] of attempts) {
      const response = await app.inject({ method: 'POST', url: '/sandbox/api/plans', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'INVALID', message });
    }
    expect(fake.granted).toEqual([]);
  });

  it('escapes what it echoes back, so a crafted link cannot script the page', async () => {
    const shown = await app.inject({
      url: '/sandbox/plans?notice=%3Cscript%3Ex%3C%2Fscript%3E&email=%22%3E',
    });
    expect(shown.body).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(shown.body).toContain('value="&quot;&gt;"');
    expect(shown.body).not.toContain('<script>x');
  });
});

describe('sandbox without plans', () => {
  it('shows no Plans control when the app gives no way to start a plan', async () => {
    const { app, sandbox } = await startApp(undefined);
    try {
      const home = await app.inject({ url: '/sandbox' });
      expect(home.body).not.toContain('/sandbox/plans');
      expect((await app.inject({ url: '/sandbox/plans' })).statusCode).toBe(404);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/sandbox/api/plans',
            payload: { email: 'merchant@shop.example', plan: 'Pro' },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await app.close();
      await sandbox.stop();
    }
  });
});
