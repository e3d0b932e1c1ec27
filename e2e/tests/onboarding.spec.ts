import { expect, test } from '@playwright/test';
import { PASSWORD, sessionCookies, uniqueEmail } from './helpers.ts';

test('a new merchant registers, goes through onboarding and pricing, chooses Free and lands on the monitors', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('new');
  await page.goto('/');
  await expect(page).toHaveURL(/\/app\/login/);
  await page
    .getByRole('link', { name: /create (an|your) account|register|sign up/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/app\/register/);

  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/app\/onboarding/);
  // Onboarding and pricing show the page alone, without the app's navigation.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  const onboarding = page.getByRole('form', { name: 'Your business and contacts' });
  await onboarding.getByRole('combobox', { name: 'Industry' }).click();
  await page.getByRole('option', { name: 'Fashion & apparel' }).click();
  await onboarding.getByLabel('Contact email').fill(email);
  await onboarding.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/app\/pricing/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Choose Free' }).click();

  await expect(page).toHaveURL(/\/app\/monitor$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Monitors' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Setings' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();

  const cookies = await sessionCookies(context);
  expect(cookies.token).toBeTruthy();
  expect(cookies.monitorKey).toBeTruthy();

  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null'));
  expect(stored).toMatchObject({ email, plan: 'Free', industry: 'Fashion & apparel' });
  expect(Number(stored.planExpiresin)).toBeGreaterThan(Date.now() / 1000 + 13 * 86400);
});

test('signing in with the sandbox OpenID provider creates the account and continues to onboarding', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('google');
  await page.goto('/app/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();

  await expect(page).toHaveURL(/\/sandbox\/oidc\/authorize/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/app\/onboarding/);
  expect((await sessionCookies(context)).token).toBeTruthy();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null'));
  expect(stored).toMatchObject({ email, plan: 'Free', planExpiresin: '0' });
});
