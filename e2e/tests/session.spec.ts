import { expect, test, type Page } from '@playwright/test';
import {
  PASSWORD,
  createReadyAccount,
  createWebsiteMonitor,
  sessionCookies,
  signInThroughForm,
} from './helpers.ts';

test('a request answered 401 clears both cookies and lands on the login page', async ({
  page,
  context,
  request,
}) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  const { token } = await sessionCookies(context);
  expect(token).toBeTruthy();

  // Away from the app while the session ends, so the list's own refresh, answered 401, does not send the page
  // to the login page in the middle of the navigation below (which then fails as aborted).
  await page.goto('about:blank');
  // The session ends on the server (as when it expires or is revoked from elsewhere).
  const revoked = await request.post('/monitor-bff/v1/user/logout', {
    headers: { Authorization: token! },
    data: {},
  });
  expect(revoked.ok()).toBe(true);

  await page.goto('/app/settings');
  await expect(page).toHaveURL(/\/app\/login/);
  expect(await sessionCookies(context)).toEqual({ token: undefined, monitorKey: undefined });
});

test('a server error shows the Error toast at the top with the server message', async ({ page, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);

  await page.route('**/monitor-bff/plans', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'INTERNAL', message: 'The plan list is resting; try again in a minute.' }),
    }),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(/\/app\/pricing/);

  const toast = page
    .getByRole('alert')
    .filter({ hasText: 'The plan list is resting; try again in a minute.' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Error');
  const box = await toast.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.y).toBeLessThan(viewport.height / 3);
});

test('pricing shows the page without the shell', async ({ page, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  await page.goto('/app/pricing');
  await expect(page.getByRole('button', { name: 'Choose Free' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Account menu/ })).toHaveCount(0);
});

test('the navbar collapses behind a burger on a narrow window', async ({ page, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  const alerts = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' });
  await expect(alerts).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeHidden();

  // Below the sm breakpoint the navbar slides out of view and a burger brings it back.
  await page.setViewportSize({ width: 480, height: 800 });
  await expect(alerts).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(alerts).toBeInViewport();
  await alerts.click();
  await expect(page).toHaveURL(/\/app\/alerts$/);
});

test('logging out from the avatar menu ends the session', async ({ page, context, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  const { token } = await sessionCookies(context);

  await page.getByRole('button', { name: `Account menu for ${account.email}` }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();

  await expect(page).toHaveURL(/\/app\/login/);
  expect(await sessionCookies(context)).toEqual({ token: undefined, monitorKey: undefined });
  const after = await request.get('/monitor-bff/user-info', { headers: { Authorization: token! } });
  expect(after.status()).toBe(401);
});

test('the account menu opens and is used from the keyboard', async ({ page, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);

  const button = page.getByRole('button', { name: `Account menu for ${account.email}` });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu).toContainText(`Signed in as ${account.email}`);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/settings$/);
  await expect(menu).toBeHidden();

  // Opened again, Escape closes it.
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test("a link opened while signed out, such as an alert email's, is where signing in lands", async ({
  page,
  request,
}) => {
  const account = await createReadyAccount(request);
  await page.goto('/app/alerts');
  await expect(page).toHaveURL(/\/app\/login/);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/alerts$/);
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();

  // Reached once: the next sign-in starts from the monitors again.
  await page.getByRole('button', { name: `Account menu for ${account.email}` }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/app\/login/);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
});

/** Holds the browser's requests for the scripts matching `pattern` until `release()` is called. */
async function holdScripts(page: Page, pattern: string | RegExp) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('the login page shows before any script has arrived, and what was typed then carries over', async ({
  page,
  context,
  request,
}) => {
  const account = await createReadyAccount(request);
  const release = await holdScripts(page, '**/app/assets/*.js');
  await page.goto('/app/login', { waitUntil: 'commit' });

  // The server's rendered page: a person can read it and type into it while the scripts are on their way.
  const form = page.getByRole('form', { name: 'Sign in' });
  await expect(page.getByRole('heading', { name: 'Sign in to Vigil' })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'button');
  await form.getByLabel('Email').fill(account.email);
  const password = form.getByRole('textbox', { name: 'Password', exact: true });
  await password.click();
  await page.keyboard.type(PASSWORD.slice(0, -2));

  release();
  // The live page took its place, kept both fields, and left the cursor in the password field.
  await expect(form.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
  await expect(form.getByLabel('Email')).toHaveValue(account.email);
  await expect(password).toBeFocused();
  await page.keyboard.type(PASSWORD.slice(-2));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/monitor$/);
  expect((await sessionCookies(context)).token).toBeTruthy();
});

test('a Sign in pressed while the login page was not yet live signs in once it is', async ({
  page,
  request,
}) => {
  const account = await createReadyAccount(request);
  // The app's entry runs; only the chunk with the login page's own code is late, as on a slow connection.
  const release = await holdScripts(page, '**/app/assets/signed-out-*.js');
  const signIns: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().endsWith('/oauth-bff/v1/user/login')) signIns.push(sent.method());
  });
  await page.goto('/app/login');

  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(account.email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/app\/login$/);
  expect(signIns).toEqual([]);

  release();
  await expect(page).toHaveURL(/\/app\/monitor$/);
  expect(signIns).toEqual(['POST']);
});

test('a signed-in first load asks for its data while the app’s code is on its way, and only once', async ({
  page,
  request,
}) => {
  const account = await createReadyAccount(request);
  await createWebsiteMonitor(request, account.token, 'Storefront');
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  await page.goto('about:blank');

  const asked: string[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.pathname.startsWith('/monitor-bff/')) asked.push(url.pathname + url.search);
  });
  // The entry and the page's code are late, as on a slow connection; the small early script is not.
  const release = await holdScripts(page, /\/app\/assets\/(index|signed-in)-[^/]+\.js$/);
  await page.goto('/app/monitor', { waitUntil: 'commit' });
  const list = '/monitor-bff/monitor?page=1&pageSize=20';
  await expect.poll(() => asked).toEqual(expect.arrayContaining(['/monitor-bff/user-info', list]));

  release();
  await expect(page.getByRole('heading', { name: 'Monitors', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Storefront' }).first()).toBeVisible();
  expect(asked.filter((url) => url === '/monitor-bff/user-info')).toHaveLength(1);
  expect(asked.filter((url) => url === list)).toHaveLength(1);
});

test('a signed-in visit to /app/login is not sent the prerendered page', async ({ page, request }) => {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  const html = await page.request.get('/app/login');
  expect(await html.text()).not.toContain('data-prerendered');
  const anonymous = await request.get('/app/login', { headers: { cookie: '' } });
  expect(await anonymous.text()).toContain('data-prerendered="login"');
});
