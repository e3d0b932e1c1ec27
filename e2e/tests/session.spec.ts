import { expect, test } from '@playwright/test';
import { createReadyAccount, sessionCookies, signInThroughForm } from './helpers.ts';

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
