import { expect, test } from '@playwright/test';
import {
  checkNowShows,
  createReadyAccount,
  readSandboxMail,
  Shop,
  signInThroughForm,
  verifyEmailInForm,
} from './helpers.ts';

test('a watched site that goes down raises an alert by email and on the alerts page, then recovers', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const shop = new Shop();
  await shop.start();
  try {
    const account = await createReadyAccount(request);
    await signInThroughForm(page, account.email);
    await expect(page).toHaveURL(/\/app\/monitor$/);

    await page.getByRole('link', { name: 'Create your first monitor' }).click();
    await expect(page).toHaveURL(/\/app\/monitor_create/);
    const form = page.getByRole('form', { name: 'New monitor' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('My shop');
    await form.getByRole('textbox', { name: /^Page address/ }).fill(shop.url);
    await form.getByRole('textbox', { name: 'Failed checks before alerting' }).fill('1');

    await verifyEmailInForm(page, form, account.email);
    await form.getByRole('button', { name: 'Create monitor' }).click();

    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');

    await shop.stop();
    await checkNowShows(page, 'Down');

    const downMail = await readSandboxMail(page, account.email, /DOWN/);
    expect(downMail).toContain('My shop');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/app\/alerts/);
    // Seen from any tab: the title counts the monitors down, the Alerts entry the open alerts.
    await expect(page).toHaveTitle('(1 down) Vigil');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts 1 open' }),
    ).toBeVisible();
    const alertRow = page.getByRole('row').filter({ hasText: 'My shop' }).first();
    await expect(alertRow).toContainText(/open/i);
    await expect(alertRow).toContainText(/sent/i);

    await shop.start();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');

    const recoveredMail = await readSandboxMail(page, account.email, /Recovered/);
    expect(recoveredMail).toContain('My shop');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'My shop' }).first()).toContainText(/resolved/i);
    await expect(page).toHaveTitle('Vigil');
  } finally {
    await shop.stop();
  }
});
