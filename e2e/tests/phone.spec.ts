import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  buyPlan,
  checkNowShows,
  createReadyAccount,
  Shop,
  signInThroughForm,
  uniqueUsPhone,
} from './helpers.ts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Picks `option` in one of the form's drop-down lists, as a person would. */
async function choose(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(combobox).toHaveValue(option);
}

/** The sandbox's pretend phone (/sandbox/phone), which refreshes itself every 2 seconds. */
async function openSandboxPhone(page: Page): Promise<Page> {
  const tab = await page.context().newPage();
  await tab.goto('/sandbox/phone');
  return tab;
}

/** Reads the newest code texted to `number` from the sandbox phone's messages, as a person would. */
async function readTextedCode(page: Page, number: string): Promise<{ code: string; text: string }> {
  const tab = await openSandboxPhone(page);
  const row = tab
    .getByRole('row')
    .filter({ has: tab.getByRole('cell', { name: number, exact: true }) })
    .filter({ hasText: /\b\d{6}\b/ })
    .first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  const text = await row.getByRole('cell').last().innerText();
  await tab.close();
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, text).toBeTruthy();
  return { code: code!, text };
}

/**
 * Presses a button of a call on the sandbox phone and waits until its title shows the call moved on. The
 * page reloads itself every 2 seconds, which can swallow a click; the button is pressed again only while the
 * call still has not moved.
 */
async function actOnCall(call: Locator, button: string, movedTo: RegExp) {
  const title = call.getByRole('heading');
  await expect(async () => {
    if (!movedTo.test((await title.textContent()) ?? '')) {
      await call.getByRole('button', { name: button, exact: true }).click({ timeout: 2_000 });
    }
    await expect(title).toHaveText(movedTo, { timeout: 4_000 });
  }).toPass({ timeout: 20_000 });
}

test('a Pro account is called in German when its site goes down, and pressing 1 acknowledges the alert', async ({
  page,
  request,
}) => {
  // Generous: on a busy machine each check and page load can take several seconds.
  test.setTimeout(180_000);
  const shop = new Shop();
  await shop.start();
  const phone = uniqueUsPhone();
  try {
    const account = await createReadyAccount(request);
    await signInThroughForm(page, account.email);
    await expect(page).toHaveURL(/\/app\/monitor$/);
    await buyPlan(page, 'Pro');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/app\/monitor$/);

    await page.getByRole('link', { name: 'Create your first monitor' }).click();
    await expect(page).toHaveURL(/\/app\/monitor_create/);
    const form = page.getByRole('form', { name: 'New monitor' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('My shop');
    await form.getByRole('textbox', { name: /^Page address/ }).fill(shop.url);
    // Every minute is a Pro interval: Free offers it only as "(higher plans)".
    await choose(page, form.getByRole('combobox', { name: 'Check every' }), 'Every 1 minute');
    await form.getByRole('textbox', { name: 'Failed checks before alerting' }).fill('1');
    await choose(page, form.getByRole('combobox', { name: 'Repeat the alert' }), 'Every 5 minutes');
    // Only the call alerts: the email channel starts ticked for the contact email.
    await form.getByRole('checkbox', { name: /^Email/ }).uncheck();
    await choose(page, form.getByRole('combobox', { name: 'Language of calls and texts' }), 'German');

    const callChannel = form.getByRole('group', { name: 'Phone call' });
    await callChannel.getByRole('checkbox', { name: /^Phone call/ }).check();
    await choose(page, callChannel.getByRole('combobox', { name: 'Country' }), 'United States (+1)');
    await callChannel.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
    await callChannel.getByRole('textbox', { name: 'Contact name' }).fill('Ana');
    await callChannel.getByRole('checkbox', { name: /I agree to receive automated alert calls/ }).check();
    await callChannel.getByRole('button', { name: 'Send code by SMS' }).click();
    const texted = await readTextedCode(page, phone.e164);
    expect(texted.text).toContain('Ihr Vigil-Bestätigungscode lautet');
    await callChannel.getByRole('textbox', { name: '6-digit code' }).fill(texted.code);
    await callChannel.getByRole('button', { name: 'Verify' }).click();
    await expect(callChannel.getByText('Verified', { exact: true })).toBeVisible();
    await form.getByRole('button', { name: 'Create monitor' }).click();

    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');
    await shop.stop();
    await checkNowShows(page, 'Down');

    const sandboxPhone = await openSandboxPhone(page);
    const callTitle = new RegExp(`^Call to ${escapeRegExp(phone.e164)}`);
    const call = sandboxPhone.getByRole('article', { name: callTitle }).first();
    await expect(call).toBeVisible({ timeout: 20_000 });
    await expect(call.getByRole('heading')).toHaveText(/ringing/);
    // What the call says comes from Vigil only once it is answered.
    await expect(call.getByText('Nothing spoken yet.')).toBeVisible();

    await actOnCall(call, 'Answer', /in-progress/);
    await expect(call.getByText(/Vigil-Alarm\. My shop hat ein Problem/).first()).toBeVisible();
    await expect(call.locator('q[lang="de-DE"]').first()).toBeVisible();
    await actOnCall(call, 'Press 1', /completed/);
    await expect(call.getByText('Danke. Der Alarm ist bestätigt. Auf Wiederhören.')).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/app\/alerts/);
    const alertRow = page.getByRole('row').filter({ hasText: 'My shop' }).first();
    // The page does not refresh itself; the answered call's status may land just after it loaded.
    await expect(async () => {
      await page.reload();
      await expect(alertRow).toContainText('Call: Answered, acknowledged', { timeout: 5_000 });
    }).toPass({ timeout: 20_000 });
    await expect(alertRow.getByRole('cell').first()).toHaveText('Acknowledged');
    await expect(alertRow).toContainText(`Alert to ${phone.e164}`);
    await expect(alertRow.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);

    // Acknowledged, the incident stays open while the site is down but calls nobody again. (Repeats come at
    // the earliest after 5 minutes; the server tests move a clock past them.)
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'My shop', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Down');
    await sandboxPhone.close();
    // Nothing to wait for when nothing happens: give a wrongly queued call time to be placed.
    await page.waitForTimeout(5_000);
    const phoneLater = await openSandboxPhone(page);
    const callsLater = phoneLater.getByRole('article', { name: callTitle });
    await expect(callsLater).toHaveCount(1);
    await expect(callsLater.getByRole('heading')).toHaveText(/completed/);
    await phoneLater.close();
  } finally {
    await shop.stop();
  }
});
