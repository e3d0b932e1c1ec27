import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  alertRows,
  checkNowShows,
  createReadyAccount,
  readSandboxMail,
  Shop,
  signInThroughForm,
  verifyEmailInForm,
} from './helpers.ts';

const HOODIE_CO = '2223334444';
const HOODIE_CO_ADS = '1010101010';

/** Every journey starts from the sandboxes' demo accounts as they ship. */
test.beforeEach(async ({ request }) => {
  expect((await request.delete('/sandbox/api/google')).ok()).toBe(true);
  expect((await request.delete('/sandbox/api/meta')).ok()).toBe(true);
});

/** A Google Ads ad of the sandbox's demo customer, by name. */
async function googleAd(request: APIRequestContext, customerId: string, name: string) {
  const response = await request.get(`/sandbox/api/google/customers/${customerId}`);
  expect(response.ok()).toBe(true);
  const { ads } = (await response.json()).data as { ads: { id: string; name: string }[] };
  const ad = ads.find((candidate) => candidate.name === name);
  expect(ad, `${name} in customers/${customerId}`).toBeTruthy();
  return ad!;
}

async function startNewMonitor(page: Page, service: RegExp) {
  await page.goto('/app/monitor_create');
  const form = page.getByRole('form', { name: 'New monitor' });
  await form.getByRole('radio', { name: service }).click();
  return form;
}

test('a merchant connects Google Ads, watches two ads of a client account under a manager, and hears when one is disapproved', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);

  let form = await startNewMonitor(page, /^Google Ads/);
  await form.getByRole('button', { name: 'Connect Google Ads' }).click();

  // Google's consent page: the demo merchant, offline access to Google Ads.
  await expect(page).toHaveURL(/\/sandbox\/google\/o\/oauth2\/v2\/auth/);
  await page.getByRole('radio', { name: /merchant@vigil\.test/ }).check();
  await page.getByRole('button', { name: 'Allow' }).click();

  // Back in the form with the Google account chosen.
  await expect(page).toHaveURL(/\/app\/monitor_create/);
  form = page.getByRole('form', { name: 'New monitor' });
  await expect(form.getByRole('radio', { name: /merchant@vigil\.test/ })).toBeChecked();

  // Hoodie Co is reached through the demo agency's manager account.
  const customers = form.getByRole('radiogroup', { name: 'Google Ads account' });
  await expect(customers.getByRole('group', { name: /Client accounts of Vigil Demo Agency/ })).toBeVisible();
  await customers.getByRole('radio', { name: /^Hoodie Co/ }).check();
  await form.getByRole('radio', { name: 'Chosen campaigns and ads' }).check();
  const tree = form.getByRole('group', { name: 'Campaigns and ads to watch' });
  await tree.getByRole('checkbox', { name: /Zip hoodie — search/ }).check();
  await tree.getByRole('checkbox', { name: /Warm hoodie — search/ }).check();
  await expect(form.getByText('2 ads chosen')).toBeVisible();

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Hoodie ads');
  await verifyEmailInForm(page, form, account.email);
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(page.getByRole('heading', { name: 'Hoodie ads', level: 1 })).toBeVisible();
  await checkNowShows(page, 'Up');

  // In Google Ads, one watched ad is disapproved: its landing page does not work.
  const ad = await googleAd(request, HOODIE_CO, 'Zip hoodie — search');
  const disapproved = await request.post(`/sandbox/api/google/customers/${HOODIE_CO}/ads/${ad.id}/approval`, {
    data: { approvalStatus: 'DISAPPROVED', topic: 'DESTINATION_NOT_WORKING' },
  });
  expect(disapproved.ok()).toBe(true);
  await checkNowShows(page, 'Down');

  const mail = await readSandboxMail(page, account.email, /DOWN/);
  expect(mail).toContain('Zip hoodie — search');
  expect(mail).toContain('DESTINATION_NOT_WORKING');
  const rows = await alertRows(page, 'Hoodie ads', /disapproved/i);
  await expect(rows.first()).toContainText(/open/i);
});

test('a merchant connects Meta, watches an ad set, and hears when the ad account goes into risk review, with the reason', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);

  let form = await startNewMonitor(page, /^Meta ads/);
  await form.getByRole('button', { name: 'Connect Meta ads' }).click();

  // Facebook's login dialog: continue as the demo merchant.
  await expect(page).toHaveURL(/\/sandbox\/meta\/www\/v[\d.]+\/dialog\/oauth/);
  await page.getByRole('radio', { name: /Demo Merchant/ }).check();
  await page.getByRole('button', { name: /^Continue as/ }).click();

  await expect(page).toHaveURL(/\/app\/monitor_create/);
  form = page.getByRole('form', { name: 'New monitor' });
  await expect(form.getByRole('radio', { name: /Demo Merchant/ })).toBeChecked();
  await form
    .getByRole('radiogroup', { name: 'Ad account' })
    .getByRole('radio', { name: /^Hoodie Co Ads/ })
    .check();
  const adSets = form.getByRole('group', { name: 'Ad sets to watch' });
  await adSets.getByRole('checkbox', { name: /Hoodies — lookalike US/ }).check();

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Hoodie Co on Meta');
  await verifyEmailInForm(page, form, account.email);
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(page.getByRole('heading', { name: 'Hoodie Co on Meta', level: 1 })).toBeVisible();
  await checkNowShows(page, 'Up');

  // Meta puts the ad account into risk review for an ads integrity policy.
  const review = await request.post(`/sandbox/api/meta/accounts/${HOODIE_CO_ADS}/status`, {
    data: { accountStatus: 7, disableReason: 1 },
  });
  expect(review.ok()).toBe(true);
  await checkNowShows(page, 'Down');

  const mail = await readSandboxMail(page, account.email, /DOWN/);
  expect(mail).toContain('pending risk review');
  expect(mail).toContain('ads integrity policy');
  await alertRows(page, 'Hoodie Co on Meta', /pending risk review/);
});

test('ads linked to a shop that goes down send one "spending while the shop cannot sell" alert, not one per symptom', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const shop = new Shop();
  await shop.start();
  try {
    const account = await createReadyAccount(request);
    await signInThroughForm(page, account.email);
    await expect(page).toHaveURL(/\/app\/monitor$/);

    // The shop's own monitor.
    let form = await startNewMonitor(page, /^Website/);
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Hoodie shop');
    await form.getByRole('textbox', { name: /^Page address/ }).fill(shop.url);
    await form.getByRole('textbox', { name: 'Failed checks before alerting' }).fill('1');
    await verifyEmailInForm(page, form, account.email);
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await expect(page.getByRole('heading', { name: 'Hoodie shop', level: 1 })).toBeVisible();
    const shopMonitor = page.url();

    // The Meta ads that send people to it.
    form = await startNewMonitor(page, /^Meta ads/);
    await form.getByRole('button', { name: 'Connect Meta ads' }).click();
    await page.getByRole('button', { name: /^Continue as/ }).click();
    await expect(page).toHaveURL(/\/app\/monitor_create/);
    form = page.getByRole('form', { name: 'New monitor' });
    await form
      .getByRole('radiogroup', { name: 'Ad account' })
      .getByRole('radio', { name: /^Hoodie Co Ads/ })
      .check();
    await form
      .getByRole('group', { name: 'Ad sets to watch' })
      .getByRole('checkbox', { name: /Hoodies — lookalike US/ })
      .check();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Hoodie ads on Meta');
    await form.getByRole('combobox', { name: /Shop these ads send people to/ }).click();
    await page.getByRole('option', { name: /^Hoodie shop/ }).click();
    // The address was verified with the shop's monitor.
    await form.getByRole('checkbox', { name: /^Email/ }).check();
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await expect(form.getByText('Verified')).toBeVisible();
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await expect(page.getByRole('heading', { name: 'Hoodie ads on Meta', level: 1 })).toBeVisible();
    await checkNowShows(page, 'Up');
    const adsMonitor = page.url();

    // The site goes down: its monitor's incident re-checks the ads at once, and one alert says what the money
    // is doing and what to pause.
    await shop.stop();
    await page.goto(shopMonitor);
    await checkNowShows(page, 'Down');
    const mail = await readSandboxMail(page, account.email, /Hoodie ads on Meta/);
    expect(mail).toContain('Ads are spending while Hoodie shop cannot sell');
    expect(mail).toContain('pause the ad sets Hoodies — lookalike US');

    // Meta then flags the ad set for its broken landing page: a symptom of the same outage, held back.
    const flagged = await request.post('/sandbox/api/meta/adsets/120211000000000001/status', {
      data: { effectiveStatus: 'WITH_ISSUES', issue: 'The landing page is not available' },
    });
    expect(flagged.ok(), await flagged.text()).toBe(true);
    await page.goto(adsMonitor);
    const monitorId = new URL(adsMonitor).searchParams.get('monitorId')!;
    const lastChecked = async () => {
      const response = await request.get(`/monitor-bff/monitor-info?monitorId=${monitorId}`, {
        headers: { Authorization: account.token },
      });
      return ((await response.json()).data as { lastCheckedAt: string | null }).lastCheckedAt;
    };
    const before = await lastChecked();
    await expect(page.getByRole('button', { name: 'Check now' })).toBeEnabled({ timeout: 25_000 });
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(lastChecked, { timeout: 20_000 }).not.toBe(before);

    const rows = await alertRows(page, 'Hoodie ads on Meta', /cannot sell/);
    await expect(rows).toHaveCount(1);

    // The ad set's issue was held back, not missed: once the shop sells again, it alerts on its own.
    await shop.start();
    await page.goto(shopMonitor);
    await checkNowShows(page, 'Up');
    const after = await alertRows(page, 'Hoodie ads on Meta', /WITH_ISSUES/);
    await expect(after.filter({ hasText: /cannot sell/ }).first()).toContainText(/resolved/i);
    await page.goto(adsMonitor);
    await expect(page.getByRole('main')).toContainText('The landing page is not available');
  } finally {
    await shop.stop();
  }
});
