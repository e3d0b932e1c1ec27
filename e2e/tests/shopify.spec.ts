import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  alertRows,
  createReadyAccount,
  PASSWORD,
  readSandboxMail,
  signInThroughForm,
  uniqueEmail,
  verifyEmailInForm,
} from './helpers.ts';

/** A shop of its own in the sandbox Shopify, with 14 one-variant products (two pages of the picker). */
async function createShop(request: APIRequestContext, name: string): Promise<string> {
  const created = await request.post('/sandbox/api/shopify/shops', {
    data: { name: `${name} ${Date.now().toString(36)}`, productCount: 14 },
  });
  expect(created.ok()).toBe(true);
  return ((await created.json()).data as { domain: string }).domain;
}

/** Opens the sandbox Shopify's page of the shop in a second tab, as the merchant's Shopify admin. */
async function shopifyAdmin(page: Page, shop: string): Promise<Page> {
  const admin = await page.context().newPage();
  await admin.goto(`/sandbox/shopify?shop=${encodeURIComponent(shop)}`);
  await expect(admin.getByRole('heading', { level: 2 }).first()).toBeVisible();
  return admin;
}

/** The merchant sets a product's stock in the Shopify admin; Shopify sends inventory_levels/update. */
async function setStock(admin: Page, product: string, quantity: number) {
  await admin.getByRole('spinbutton', { name: `Stock of ${product}` }).fill(String(quantity));
  await admin.getByRole('button', { name: `Set stock of ${product}` }).click();
  await expect(admin.getByRole('spinbutton', { name: `Stock of ${product}` })).toHaveValue(String(quantity));
}

test('a merchant who installs Vigil from Shopify first signs up, lands on the shop’s monitor, and hears of a sell-out within seconds', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const shop = await createShop(request, 'Install First');
  const email = uniqueEmail('install');

  // On Shopify: install the app, approve its access.
  await page.goto(`/sandbox/shopify?shop=${encodeURIComponent(shop)}`);
  await page.getByRole('button', { name: 'Install Vigil' }).click();
  await expect(page).toHaveURL(/\/admin\/oauth\/authorize/);
  await page.getByRole('button', { name: 'Approve' }).click();

  // Vigil holds the connection and asks who this is; a new merchant creates an account.
  await expect(page).toHaveURL(/\/app\/login\?redirect=/);
  await page
    .getByRole('link', { name: /create (an|your) account|register|sign up/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/app\/register\?redirect=/);
  const register = page.getByRole('form', { name: 'Create your account' });
  await register.getByLabel('Email').fill(email);
  await register.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await register.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await register.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/app\/onboarding\?redirect=/);
  const onboarding = page.getByRole('form', { name: 'Your business and contacts' });
  await onboarding.getByRole('combobox', { name: 'Industry' }).click();
  await page.getByRole('option', { name: 'Fashion & apparel' }).click();
  await onboarding.getByLabel('Contact email').fill(email);
  await onboarding.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/app\/pricing\?redirect=/);
  await page.getByRole('button', { name: 'Choose Free' }).click();

  // The held shop is now this merchant's, on a new Shopify monitor.
  await expect(page).toHaveURL(/\/app\/monitor_create\?redirect=/);
  const form = page.getByRole('form', { name: 'New monitor' });
  await expect(form.getByRole('radio', { name: /^Shopify store/ })).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByRole('radio', { name: /Install First/ })).toHaveAttribute('aria-checked', 'true');

  // Two products, on two pages of the picker: the first stays chosen across the page change.
  const products = form.getByRole('list', { name: 'Products of the shop' });
  await products.getByRole('checkbox', { name: /Everyday hoodie/ }).check();
  await form.getByRole('button', { name: 'Next' }).click();
  await products.getByRole('checkbox', { name: /Rugged mug/ }).check();
  const chosen = form.getByRole('list', { name: 'Chosen products' });
  await expect(chosen).toContainText('Everyday hoodie');
  await expect(chosen).toContainText('Rugged mug');

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Hoodie stock');
  await verifyEmailInForm(page, form, email);
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(page.getByRole('heading', { name: 'Hoodie stock', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText('Up', { exact: true }).first()).toBeVisible({
    timeout: 20_000,
  });

  // The merchant sells out in Shopify: the webhook makes Vigil check at once.
  const admin = await shopifyAdmin(page, shop);
  await setStock(admin, 'Everyday hoodie 1', 0);
  const soldOut = (await alertRows(page, 'Hoodie stock', /out of stock/i))
    .filter({ hasText: /out of stock/i })
    .first();
  await expect(soldOut).toContainText(/open/i);
  const mail = await readSandboxMail(page, email, /DOWN/);
  expect(mail).toContain(`Everyday hoodie 1 is out of stock on ${shop}`);

  // Restocked: the incident resolves and the recovery email follows.
  await setStock(admin, 'Everyday hoodie 1', 5);
  await alertRows(page, 'Hoodie stock', /resolved/i);
  expect(await readSandboxMail(page, email, /Recovered/)).toContain('Hoodie stock');
});

test('a signed-in merchant connects a shop from the form, picks a product, and is alerted when the app is uninstalled', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const shop = await createShop(request, 'In App');
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);

  await page.goto('/app/monitor_create');
  const form = page.getByRole('form', { name: 'New monitor' });
  await form.getByRole('radio', { name: /^Shopify store/ }).click();
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Whole shop');
  await form.getByRole('textbox', { name: /shop’s address/ }).fill(shop);
  await form.getByRole('button', { name: 'Connect' }).click();

  await expect(page).toHaveURL(/\/admin\/oauth\/authorize/);
  await expect(page.getByRole('heading', { name: /Install Vigil on/ })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();

  // Back on the form as it was left, with the shop connected and chosen.
  await expect(page).toHaveURL(/\/app\/monitor_create/);
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Whole shop');
  await expect(form.getByRole('radio', { name: /In App/ })).toHaveAttribute('aria-checked', 'true');
  await form
    .getByRole('list', { name: 'Products of the shop' })
    .getByRole('checkbox', { name: /Classic scarf/ })
    .check();
  // No channel: the incident still shows on the Alerts page.
  await form.getByRole('checkbox', { name: /^Email/ }).uncheck();
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(page.getByRole('heading', { name: 'Whole shop', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText('Up', { exact: true }).first()).toBeVisible({
    timeout: 20_000,
  });

  // The merchant uninstalls Vigil in Shopify: the connection is lost and that is an alert.
  const admin = await shopifyAdmin(page, shop);
  await admin.getByRole('button', { name: 'Uninstall app' }).click();
  await expect(admin.getByRole('button', { name: 'Install Vigil' })).toBeVisible();

  const lost = (await alertRows(page, 'Whole shop', /Connection lost/i))
    .filter({ hasText: /Connection lost/i })
    .first();
  await expect(lost).toContainText(/open/i);
  await page.goBack();
  await page.goto('/app/monitor');
  const row = page.getByRole('row').filter({ hasText: 'Whole shop' });
  await expect(row).toContainText('Connection lost');
  await expect(row.getByRole('button', { name: /Reconnect/ })).toBeVisible();
});
