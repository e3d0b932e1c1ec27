import { expect, test, type Page } from '@playwright/test';
import { checkNowShows, createReadyAccount, Shop, signInThroughForm } from './helpers.ts';

/** Reads the newest email to `to` whose subject matches, from the sandbox page, as a person would. */
async function readSandboxMail(page: Page, to: string, subject: RegExp): Promise<string> {
  const tab = await page.context().newPage();
  await tab.goto('/sandbox');
  const row = tab.getByRole('row').filter({ hasText: to }).filter({ hasText: subject });
  await expect(async () => {
    await tab.reload();
    await expect(row.first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await row.first().getByRole('link').click();
  const text = await tab.locator('pre').innerText();
  await tab.close();
  return text;
}

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

    const emailChannel = form.getByRole('checkbox', { name: /^Email/ });
    if (!(await emailChannel.isChecked())) await emailChannel.check();
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await form.getByRole('button', { name: 'Send code' }).click();
    const codeMail = await readSandboxMail(page, account.email, /code/i);
    const code = /\b(\d{6})\b/.exec(codeMail)?.[1];
    expect(code, codeMail).toBeTruthy();
    await form.getByRole('textbox', { name: '6-digit code' }).fill(code!);
    await form.getByRole('button', { name: 'Verify' }).click();
    await expect(form.getByText('Verified')).toBeVisible();
    await form.getByRole('button', { name: 'Create monitor' }).click();

    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');

    await shop.stop();
    await checkNowShows(page, 'Down');

    const downMail = await readSandboxMail(page, account.email, /DOWN/);
    expect(downMail).toContain('My shop');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/app\/alerts/);
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
  } finally {
    await shop.stop();
  }
});
