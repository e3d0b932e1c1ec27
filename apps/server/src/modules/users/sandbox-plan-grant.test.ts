import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, registerUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(databases)('starting a plan from the sandbox on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const grant = (body: unknown) => call(t.app, 'POST', '/sandbox/api/plans', { body });
  const userInfo = async (token: string) =>
    (await call(t.app, 'GET', '/monitor-bff/user-info', { token })).body.data;

  it('puts the account of that email on the plan for 30 days, without checkout', async () => {
    const user = await registerUser(t.app);
    const until = unixSeconds(t.clock.now()) + (30 * DAY_MS) / 1000;

    const { status, body } = await grant({ email: ` ${user.email.toUpperCase()} `, plan: 'Pro' });

    expect(status).toBe(200);
    const day = new Date(until * 1000).toISOString().slice(0, 10);
    expect(body).toEqual({ data: { message: `${user.email} is on Pro until ${day}.` } });
    expect(await userInfo(user.token)).toMatchObject({ plan: 'Pro', planExpiresin: until });
  });

  it('says when no account uses the email, and changes nothing', async () => {
    const user = await registerUser(t.app);
    const { status, body } = await grant({ email: `x${user.email}`, plan: 'Business' });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'INVALID', message: 'No account uses that email.' });
    expect(await userInfo(user.token)).toMatchObject({ plan: 'Free', planExpiresin: '0' });
  });

  it('offers every plan of the catalogue on the sandbox page', async () => {
    const { body } = await call(t.app, 'GET', '/sandbox/plans');
    for (const name of ['Free', 'Starter', 'Pro', 'Business']) {
      expect(body).toContain(`<option value="${name}">${name}</option>`);
    }
  });
});
