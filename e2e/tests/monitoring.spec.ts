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
    // The status bar: a bar per check, the newest (this failure) red at the right, and the same in words.
    const statusBar = page.getByTestId('check-status-bar');
    const newest = statusBar.locator('[data-check]').last();
    await expect(newest).toHaveAttribute('data-check', 'failed');
    await expect(newest).toHaveAttribute('title', /· Failed · .*refused the connection/);
    await expect(newest).toHaveCSS('background-color', 'rgb(250, 82, 82)');
    await expect(statusBar.locator('[data-check="passed"]').first()).toHaveCSS(
      'background-color',
      'rgb(64, 192, 87)',
    );
    await expect(page.getByRole('region', { name: 'Recent checks' })).toContainText(
      /Last \d+ checks: \d+ passed, \d+ failed; last failure .+ \(.*refused the connection\)\./,
    );

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
    // Its timeline: the failed check, the incident opening, the email that went out.
    const timelineButton = alertRow.getByRole('button', { name: /^Timeline of .* on My shop$/ });
    await expect(timelineButton).toHaveAttribute('aria-expanded', 'false');
    await timelineButton.click();
    await expect(timelineButton).toHaveAttribute('aria-expanded', 'true');
    const openTimeline = page.getByRole('list', { name: /^Timeline of .* on My shop$/ });
    await expect(openTimeline.getByRole('listitem').first()).toContainText(/^Check failed/);
    await expect(openTimeline).toContainText('Incident opened');
    await expect(openTimeline).toContainText(`Alert by Email to ${account.email}: Sent`);
    await expect(openTimeline.getByRole('listitem').last()).toHaveText('Still open');

    await shop.start();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');

    const recoveredMail = await readSandboxMail(page, account.email, /Recovered/);
    expect(recoveredMail).toContain('My shop');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    const resolvedRow = page.getByRole('row').filter({ hasText: 'My shop' }).first();
    await expect(resolvedRow).toContainText(/resolved/i);
    await resolvedRow.getByRole('button', { name: /^Timeline of .* on My shop$/ }).click();
    const endedTimeline = page.getByRole('list', { name: /^Timeline of .* on My shop$/ });
    await expect(endedTimeline).toContainText('Incident opened');
    await expect(endedTimeline).toContainText('Recovered: a check passed');
    await expect(endedTimeline.getByRole('listitem').last()).toContainText(
      `Recovery notice by Email to ${account.email}: Sent`,
    );
    await expect(page).toHaveTitle('Vigil');
  } finally {
    await shop.stop();
  }
});
