import { plansResponse } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, registerUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createUserRepository } from '../users/user.repository.ts';

describe.each(databases)('plans on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const choose = (token: string | undefined, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/v1/user/choose-plan', { token, body });

  it('GET /monitor-bff/plans lists the catalogue without a session', async () => {
    const { status, body } = await call(t.app, 'GET', '/monitor-bff/plans');
    expect(status).toBe(200);
    expect(plansResponse.parse(body)).toEqual(body);
    expect(body.data.list.map((plan: { name: string }) => plan.name)).toEqual([
      'Free',
      'Starter',
      'Pro',
      'Business',
    ]);
  });

  it('choosing Free starts a 14-day period, in Unix seconds', async () => {
    const user = await registerUser(t.app);
    const { status, body } = await choose(user.token, { plan: 'Free' });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      plan: 'Free',
      planExpiresin: unixSeconds(t.clock.now()) + 14 * 24 * 3600,
    });
    expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token })).body).toEqual(body);
  });

  it('choosing Free again after the period starts a new one', async () => {
    const user = await registerUser(t.app);
    await choose(user.token, { plan: 'Free' });
    t.clock.advance(15 * DAY_MS);
    const { body } = await choose(user.token, { plan: 'free' });
    expect(body.data.planExpiresin).toBe(unixSeconds(t.clock.now()) + 14 * 24 * 3600);
  });

  it('refuses a paid plan, saying it goes through checkout', async () => {
    const user = await registerUser(t.app);
    const { status, body } = await choose(user.token, { plan: 'Pro' });
    expect(status).toBe(400);
    expect(body).toEqual({
      code: 'INVALID',
      message: 'The Pro plan is bought through checkout: choose it on the pricing page and pay to start it.',
    });
  });

  it('refuses an unknown plan, naming the ones there are', async () => {
    const user = await registerUser(t.app);
    const { status, body } = await choose(user.token, { plan: 'Platinum' });
    expect(status).toBe(400);
    expect(body.message).toBe('There is no plan called "Platinum". Choose Free, Starter, Pro, Business.');
    expect((await choose(user.token, {})).body.message).toBe('Choose a plan.');
    expect((await choose(user.token, { plan: 3 })).body.message).toBe('Choose a plan.');
  });

  it('keeps a paid plan that is still running instead of swapping it for Free', async () => {
    const user = await registerUser(t.app);
    const paidUntil = unixSeconds(t.clock.now()) + 10 * 24 * 3600;
    const users = createUserRepository(t.database.db);
    const row = await users.findByEmail(user.email);
    await users.update(row!.id, { plan: 'Pro', planExpiresAt: paidUntil }, t.clock.now());
    const { status, body } = await choose(user.token, { plan: 'Free' });
    expect(status).toBe(400);
    expect(body.message).toContain('Your Pro plan is paid until');
  });

  it('answers 401 without a session', async () => {
    expect((await choose(undefined, { plan: 'Free' })).status).toBe(401);
  });
});
