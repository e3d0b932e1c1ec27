import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../../test/databases.ts';
import { call, registerUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(databases)('user info and onboarding on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (token?: string) => call(t.app, 'GET', '/monitor-bff/user-info', { token });
  const put = (token: string | undefined, body: unknown) =>
    call(t.app, 'PUT', '/monitor-bff/user-info', { token, body });
  const onboard = (token: string | undefined, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/onboarding/user-info', { token, body });

  describe('POST /monitor-bff/onboarding/user-info', () => {
    it('stores industry and contacts and answers the updated user info', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await onboard(user.token, {
        industry: 'Pets',
        telPhone: ' +12015550123 ',
        contactEmail: 'Alerts@Shop.example',
      });
      expect(status).toBe(200);
      expect(body).toEqual({
        data: {
          email: user.email,
          industry: 'Pets',
          telPhone: '+12015550123',
          contactEmail: 'alerts@shop.example',
          plan: 'Free',
          planExpiresin: '0',
        },
      });
      expect((await get(user.token)).body).toEqual(body);
    });

    it('accepts a phone alone or an email alone, and refuses neither', async () => {
      const user = await registerUser(t.app);
      expect((await onboard(user.token, { industry: 'Agency', telPhone: '+447400123456' })).status).toBe(200);
      expect(
        (await onboard(user.token, { industry: 'Agency', contactEmail: 'ops@shop.example' })).status,
      ).toBe(200);
      const neither = await onboard((await registerUser(t.app)).token, {
        industry: 'Agency',
        telPhone: '',
        contactEmail: null,
      });
      expect(neither.status).toBe(400);
      expect(neither.body).toEqual({
        code: 'INVALID',
        message: 'Give a contact phone number or a contact email, so we can reach you when something breaks.',
        details: [
          {
            path: 'contactEmail',
            message:
              'Give a contact phone number or a contact email, so we can reach you when something breaks.',
          },
        ],
      });
    });

    it('refuses an unknown industry, a phone outside the nine countries, and a missing session', async () => {
      const user = await registerUser(t.app);
      expect(
        (await onboard(user.token, { industry: 'Mining', contactEmail: 'a@shop.example' })).body.message,
      ).toBe('Choose your industry from the list.');
      expect((await onboard(user.token, { industry: 'Pets', telPhone: '+81312345678' })).body.message).toBe(
        'Enter a phone number from one of the supported countries, in international form.',
      );
      expect((await onboard(undefined, { industry: 'Pets', contactEmail: 'a@shop.example' })).status).toBe(
        401,
      );
    });
  });

  describe('PUT /monitor-bff/user-info', () => {
    it('changes only the fields sent; null or "" clears a contact', async () => {
      const user = await registerUser(t.app);
      await onboard(user.token, {
        industry: 'Pets',
        telPhone: '+12015550123',
        contactEmail: 'a@shop.example',
      });
      const changed = await put(user.token, { industry: 'Electronics' });
      expect(changed.body.data).toMatchObject({
        industry: 'Electronics',
        telPhone: '+12015550123',
        contactEmail: 'a@shop.example',
      });
      const cleared = await put(user.token, { telPhone: '' });
      expect(cleared.body.data).toMatchObject({
        industry: 'Electronics',
        telPhone: null,
        contactEmail: 'a@shop.example',
      });
      const swapped = await put(user.token, { telPhone: '+12015550123', contactEmail: null });
      expect(swapped.body.data).toMatchObject({ telPhone: '+12015550123', contactEmail: null });
      expect((await put(user.token, {})).body.data.industry).toBe('Electronics');
    });

    it('refuses to clear the last contact, phone or email, and leaves the account as it was', async () => {
      const message =
        'Keep a contact phone number or a contact email, so we can reach you when something breaks.';
      const emailOnly = await registerUser(t.app);
      await onboard(emailOnly.token, { industry: 'Pets', contactEmail: 'a@shop.example' });
      const noEmail = await put(emailOnly.token, { contactEmail: null });
      expect(noEmail.status).toBe(400);
      expect(noEmail.body).toEqual({
        code: 'INVALID',
        message,
        details: [{ path: 'contactEmail', message }],
      });
      expect((await put(emailOnly.token, { telPhone: null, contactEmail: '' })).status).toBe(400);
      expect((await get(emailOnly.token)).body.data).toMatchObject({
        telPhone: null,
        contactEmail: 'a@shop.example',
      });

      const phoneOnly = await registerUser(t.app);
      await onboard(phoneOnly.token, { industry: 'Pets', telPhone: '+12015550123' });
      const noPhone = await put(phoneOnly.token, { telPhone: null, industry: 'Agency' });
      expect(noPhone.status).toBe(400);
      expect(noPhone.body.details).toEqual([{ path: 'telPhone', message }]);
      expect((await get(phoneOnly.token)).body.data).toMatchObject({
        industry: 'Pets',
        telPhone: '+12015550123',
      });

      // Two requests at once, each clearing one of two contacts: at most one of them wins.
      const both = await registerUser(t.app);
      await onboard(both.token, {
        industry: 'Pets',
        telPhone: '+12015550123',
        contactEmail: 'a@shop.example',
      });
      const answers = await Promise.all([
        put(both.token, { telPhone: null }),
        put(both.token, { contactEmail: null }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const after = (await get(both.token)).body.data;
      expect(after.telPhone ?? after.contactEmail).not.toBeNull();
    });

    it('refuses fields that are not editable, such as email or plan', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await put(user.token, { email: 'someone@else.example', plan: 'Business' });
      expect(status).toBe(400);
      expect(body.message).toBe('Unknown fields: email, plan.');
      expect((await get(user.token)).body.data).toMatchObject({ email: user.email, plan: 'Free' });
    });

    it('refuses wrong types and a missing session', async () => {
      const user = await registerUser(t.app);
      expect((await put(user.token, { industry: 7 })).status).toBe(400);
      expect((await put(user.token, { contactEmail: 'nope' })).body.message).toBe(
        'Enter a valid email address, like name@shop.com.',
      );
      expect((await put(undefined, { industry: 'Pets' })).status).toBe(401);
    });
  });

  it('keeps each user to their own data', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await onboard(alice.token, { industry: 'Pets', contactEmail: 'alice@shop.example' });
    await put(bob.token, { industry: 'Electronics', contactEmail: 'bob@shop.example' });
    expect((await get(alice.token)).body.data).toMatchObject({
      email: alice.email,
      industry: 'Pets',
      contactEmail: 'alice@shop.example',
    });
    expect((await get(bob.token)).body.data).toMatchObject({
      email: bob.email,
      industry: 'Electronics',
      contactEmail: 'bob@shop.example',
    });
  });
});
