import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';

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
  const registered = await request.post('/oauth-bff/v1/user/register', {
    data: { email, password: PASSWORD },
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
