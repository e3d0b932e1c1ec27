import { expect, test } from '@playwright/test';
import { createReadyAccount, signInThroughForm } from './helpers.ts';

test('a forgotten password is reset with the code read from the sandbox mail', async ({
  page,
  context,
  request,
}) => {
  const account = await createReadyAccount(request);
  await page.goto('/app/login');
  await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const requestForm = page.getByRole('form', { name: 'Request a reset code' });
  await expect(requestForm.getByLabel('Email')).toHaveValue(account.email);
  await requestForm.getByRole('button', { name: 'Send code' }).click();
  const resetForm = page.getByRole('form', { name: 'Set a new password' });
  await expect(resetForm).toBeVisible();

  // Read the code as a person would: open the sandbox's mail page in another tab.
  const mailTab = await context.newPage();
  await mailTab.goto('/sandbox');
  const row = mailTab.getByRole('row').filter({ hasText: account.email });
  await expect(async () => {
    await mailTab.reload();
    await expect(row.first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await row.first().getByRole('link').click();
  const body = await mailTab.locator('pre').innerText();
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  expect(code, body).toBeTruthy();
  await mailTab.close();

  const newPassword = 'Fresh-start-77';
  await resetForm.getByLabel('6-digit code').fill(code!);
  await resetForm.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
  await resetForm.getByRole('textbox', { name: 'Confirm new password' }).fill(newPassword);
  await resetForm.getByRole('button', { name: 'Set new password' }).click();

  await signInThroughForm(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/app\/monitor$/);
});
