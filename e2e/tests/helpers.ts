import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';

let counter = 0;

/** A fresh address per test, so tests never share an account. */
export function uniqueEmail(prefix = 'owner'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@shop.example`;
}

export const PASSWORD = 'Sturdy-pass-42';

/**
 * An account that has been through onboarding and chose Free, made through the API: the preconditions of
 * journeys that start inside the app. The journeys themselves go through the browser.
 */
export async function createReadyAccount(request: APIRequestContext, email = uniqueEmail()) {
  counter += 1;
  const registered = await request.post('/oauth-bff/v1/user/register', {
    data: { email, password: PASSWORD },
    // Registrations are limited per address; the e2e server trusts this header (playwright.config.ts).
    headers: { 'X-Forwarded-For': `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${counter % 250}` },
  });
  expect(registered.ok()).toBe(true);
  const { token, monitor_key } = (await registered.json()).data as { token: string; monitor_key: string };
  const headers = { Authorization: token };
  const onboarded = await request.post('/monitor-bff/onboarding/user-info', {
    headers,
    data: { industry: 'Fashion & apparel', contactEmail: email },
  });
  expect(onboarded.ok()).toBe(true);
  const chosen = await request.post('/monitor-bff/v1/user/choose-plan', { headers, data: { plan: 'Free' } });
  expect(chosen.ok()).toBe(true);
  return { email, token, monitorKey: monitor_key };
}

export async function signInThroughForm(page: Page, email: string, password = PASSWORD) {
  await page.goto('/app/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

export async function sessionCookies(context: BrowserContext) {
  const cookies = await context.cookies();
  return {
    token: cookies.find((cookie) => cookie.name === 'token')?.value,
    monitorKey: cookies.find((cookie) => cookie.name === 'monitor_key')?.value,
  };
}

/**
 * A fresh US number per call from the range kept for fiction (555-0100 to 555-0199), so journeys never share
 * a phone: `national` as a person types it, `e164` as Vigil and the sandbox show it.
 */
export function uniqueUsPhone(): { national: string; e164: string } {
  counter += 1;
  const line = String(100 + ((Date.now() + counter) % 100)).padStart(4, '0');
  return { national: `415 555 ${line}`, e164: `+1415555${line}` };
}

/** The merchant's shop: a local page that can be taken down and brought back on the same port. */
export class Shop {
  #server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<h1>Welcome to the shop</h1>');
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }
}

/** On a monitor's page: runs a check with "Check now" and waits until the monitor shows `status`. */
export async function checkNowShows(page: Page, status: 'Up' | 'Down') {
  const checkNow = page.getByRole('button', { name: 'Check now' });
  // The button waits for the result of the last "Check now" for up to 20 s.
  await expect(checkNow).toBeEnabled({ timeout: 25_000 });
  await checkNow.click();
  await expect(page.getByRole('main').getByText(status, { exact: true }).first()).toBeVisible({
    timeout: 20_000,
  });
}

/** Reads the newest email to `to` whose subject matches, from the sandbox page, as a person would. */
export async function readSandboxMail(page: Page, to: string, subject: RegExp): Promise<string> {
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

/** In a monitor form: sends the code to `email`, reads it from the sandbox mail and verifies the address. */
export async function verifyEmailInForm(page: Page, form: Locator, email: string) {
  const emailChannel = form.getByRole('checkbox', { name: /^Email/ });
  if (!(await emailChannel.isChecked())) await emailChannel.check();
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('button', { name: 'Send code' }).click();
  const codeMail = await readSandboxMail(page, email, /code/i);
  const code = /\b(\d{6})\b/.exec(codeMail)?.[1];
  expect(code, codeMail).toBeTruthy();
  await form.getByRole('textbox', { name: '6-digit code' }).fill(code!);
  await form.getByRole('button', { name: 'Verify' }).click();
  await expect(form.getByText('Verified')).toBeVisible();
}

/** Alerts of the monitor on the alerts page, refreshed until `text` shows. */
export async function alertRows(page: Page, monitor: string, text: RegExp): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page).toHaveURL(/\/app\/alerts/);
  const rows = page.getByRole('row').filter({ hasText: monitor });
  await expect(async () => {
    await page.reload();
    await expect(rows.filter({ hasText: text }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  return rows;
}

/** Stripe's test cards, as the sandbox's Checkout takes them. */
export const TEST_CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  /** Accepted at Checkout; every renewal is declined. */
  renewalFails: '4000 0000 0000 0341',
} as const;

/** An expiry a few years ahead, as a person types it: "12 / 31". */
function futureExpiry(): string {
  return `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;
}

/**
 * On the pricing page: picks the billing period (when given) and presses "Choose <plan>", which leaves for the
 * sandbox's hosted Checkout; resolves once Checkout shows the plan.
 */
export async function openCheckout(page: Page, plan: string, period?: 'Monthly' | 'Yearly') {
  if (period) {
    await page.getByRole('radiogroup', { name: 'Billing period' }).getByText(period, { exact: true }).click();
  }
  await page.getByRole('button', { name: `Choose ${plan}` }).click();
  await expect(page).toHaveURL(/\/sandbox\/stripe\/checkout\//);
  await expect(page.getByRole('heading', { name: `Subscribe to Vigil ${plan}`, level: 1 })).toBeVisible();
}

/** On the sandbox's Checkout: fills the card form as a person does and presses Subscribe. */
export async function payOnCheckout(page: Page, card: string) {
  const form = page.getByRole('form', { name: /^Subscribe to/ });
  await form.getByRole('textbox', { name: 'Card number' }).fill(card);
  await form.getByRole('textbox', { name: /^Expiry/ }).fill(futureExpiry());
  await form.getByRole('textbox', { name: 'CVC' }).fill('123');
  await form.getByRole('textbox', { name: 'Cardholder name' }).fill('Ana Merchant');
  await form.getByRole('button', { name: 'Subscribe' }).click();
}

/**
 * Buys a paid plan as a person does, signed in: the pricing page, "Choose <plan>", the sandbox's Checkout
 * paid with `card` (4242… by default), and `/app/payment-success` until it says "You're on <plan>", which is
 * where it leaves the page (it continues to the monitors by itself after a few seconds).
 */
export async function buyPlan(
  page: Page,
  plan: string,
  { card = TEST_CARDS.succeeds, period }: { card?: string; period?: 'Monthly' | 'Yearly' } = {},
) {
  await page.goto('/app/pricing');
  await openCheckout(page, plan, period);
  await payOnCheckout(page, card);
  await expect(page).toHaveURL(/\/app\/payment-success\?order=/);
  // The plan starts when Stripe's webhook has been applied, usually within a second or two.
  await expect(page.getByRole('heading', { name: `You're on ${plan}`, level: 1 })).toBeVisible({
    timeout: 20_000,
  });
}

/** The person's live subscription (active or past due) as the sandbox's Stripe knows it. */
export async function sandboxSubscription(request: APIRequestContext, email: string) {
  const answer = await request.get(`/sandbox/api/stripe/subscriptions?email=${encodeURIComponent(email)}`);
  expect(answer.ok()).toBe(true);
  const { list } = (await answer.json()).data as {
    list: { id: string; status: string; currentPeriodStart: string; currentPeriodEnd: string }[];
  };
  const live = list.find((subscription) => ['active', 'past_due'].includes(subscription.status));
  expect(live, `a live subscription of ${email}`).toBeTruthy();
  return live!;
}

/**
 * On the sandbox's Stripe page, opened in a new tab beside Vigil: "Advance to next renewal" for the person's
 * subscription. Resolves with the page's notice of what happened ("sub_… is past due at …; sent …").
 */
export async function advanceToNextRenewal(page: Page, request: APIRequestContext, email: string) {
  const { id } = await sandboxSubscription(request, email);
  const tab = await page.context().newPage();
  await tab.goto('/sandbox/stripe');
  await tab.getByRole('button', { name: `Advance ${id} to next renewal` }).click();
  const notice = tab.getByRole('status');
  await expect(notice).toContainText(id);
  const text = await notice.innerText();
  await tab.close();
  return text;
}

/** A date as the web app writes plan dates: "June 5, 2026". */
export function planDate(at: string | number | Date): string {
  return new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * Reloads the page until `locator` shows `text`: for what a Stripe webhook changes after the page loaded
 * (the pricing page reads the plan once).
 */
export async function reloadUntilText(page: Page, locator: Locator, text: string | RegExp) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toContainText(text, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** A website monitor made through the API, without alerts: a precondition, like createReadyAccount. */
export async function createWebsiteMonitor(request: APIRequestContext, token: string, name: string) {
  const created = await request.post('/monitor-bff/monitor', {
    headers: { Authorization: token },
    data: {
      name,
      service: 'website',
      // Nothing listens there: what matters is whether the monitor runs, not what it finds.
      target: { url: `http://127.0.0.1:9/${encodeURIComponent(name)}` },
      conditions: {
        http_status: { enabled: true },
        timeout: { enabled: false, timeoutMs: 10_000 },
        keyword: { enabled: false, keyword: '', mode: 'missing' },
        slow_response: { enabled: false, thresholdMs: 3000 },
        tls_expiry: { enabled: false, days: 14 },
        password_page: { enabled: false },
      },
      intervalSeconds: 300,
      repeatIntervalMinutes: 0,
      confirmations: 1,
      languageCode: 'en-US',
      callSettings: { checked: false, name: '', isAgree: false, phone: '' },
      smsSettings: { checked: false, name: '', isAgree: false, phone: '' },
      emailSettings: { checked: false, name: '', isAgree: false, email: '' },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
}
