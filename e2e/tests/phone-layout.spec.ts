import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  createReadyAccount,
  createWebsiteMonitor,
  signInThroughForm,
  uniqueEmail,
  verifyEmailInForm,
} from './helpers.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Problem {
  what: string;
  left: number;
  right: number;
}

/**
 * What a person cannot reach or read on this screen: a page wider than the window, a control (button, link,
 * field, tab…) sticking out of it on either side, a badge cut short ("RES…"), a filled field whose value runs
 * under its edge or a badge inside it. Controls in an inert subtree (the collapsed navbar) are not reachable by
 * anyone, so they are not counted; the burger that opens them is.
 */
async function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: Problem[] = [];
    const name = (element: Element) => {
      const field = element as HTMLInputElement;
      const words =
        element.getAttribute('aria-label') ??
        field.labels?.[0]?.textContent ??
        (field.value || element.textContent || '');
      return `${element.tagName.toLowerCase()} "${words.trim().slice(0, 60)}"`;
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 &&
        box.height > 0 &&
        element.checkVisibility({ visibilityProperty: true }) &&
        !element.closest('[inert]')
      );
    };
    const controls = document.querySelectorAll(
      'button, a[href], input:not([type="hidden"]), select, textarea, label, [role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="switch"], [role="tab"], [role="combobox"], [role="menuitem"]',
    );
    for (const control of Array.from(controls)) {
      if (!shown(control)) continue;
      const box = control.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) {
        problems.push({ what: name(control), left: Math.round(box.left), right: Math.round(box.right) });
      }
    }
    for (const label of Array.from(document.querySelectorAll('.mantine-Badge-label'))) {
      if (shown(label) && label.scrollWidth > label.clientWidth + 1) {
        problems.push({ what: `badge cut short: ${name(label)}`, left: 0, right: 0 });
      }
    }
    for (const input of Array.from(
      document.querySelectorAll<HTMLInputElement>(
        'input:not([type]), input[type="text"], input[type="email"], input[type="tel"]',
      ),
    )) {
      if (shown(input) && input.value && input.scrollWidth > input.clientWidth + 1) {
        problems.push({
          what: `value cut short: ${name(input)} shows ${input.clientWidth} of ${input.scrollWidth} px of "${input.value}"`,
          left: 0,
          right: 0,
        });
      }
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: width,
      problems,
    };
  });
}

/** Asserts the page at its current size: no sideways scroll, nothing out of reach, nothing cut. */
async function expectFits(page: Page, where: string) {
  // Lists and cards load after the heading; measure what the person ends up seeing.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const result = await layoutProblems(page);
  if (process.env.PHONE_LAYOUT_SHOTS) {
    await page.screenshot({
      path: `${process.env.PHONE_LAYOUT_SHOTS}/${result.innerWidth}-${where.replace(/\W+/g, '_')}.png`,
      fullPage: true,
    });
  }
  // Soft, so one run reports every page that does not fit, not only the first.
  expect
    .soft(result.scrollWidth, `${where}: the page is wider than the window`)
    .toBeLessThanOrEqual(result.innerWidth);
  expect.soft(result.problems, `${where}: out of reach or cut at ${result.innerWidth} px`).toEqual([]);
}

/** Opens `path` and waits for its h1 (or, on the page-not-found view, which has none, for its `text`). */
async function visit(page: Page, path: string, heading: string | RegExp | { text: string }) {
  await page.goto(path);
  const loaded =
    typeof heading === 'object' && 'text' in heading
      ? page.getByText(heading.text, { exact: true })
      : page.getByRole('heading', { level: 1, name: heading });
  await expect(loaded).toBeVisible({ timeout: 15_000 });
  await expectFits(page, path);
}

/** An account with one monitor whose site does not answer, so it has an open incident to acknowledge. */
async function accountWithAnOpenAlert(request: APIRequestContext) {
  // A longish address of a fixed length (30 characters, digits of one width), so whether it shows in full
  // in the Email fields does not depend on which letters the clock happens to give the address.
  const stamp = `${Date.now()}${String(process.pid % 100).padStart(2, '0')}`;
  const account = await createReadyAccount(request, `p-${stamp}@shop.example`);
  const headers = { Authorization: account.token };
  await createWebsiteMonitor(request, account.token, 'Storefront that is down');
  const monitors = await request.get('/monitor-bff/monitor?page=1&pageSize=10', { headers });
  const monitorId = ((await monitors.json()).data.list as { monitorId: string }[])[0]!.monitorId;
  // Nothing answers at the monitor's address: its first check (due at once) opens an incident.
  await expect(async () => {
    const alerts = await request.get(`/monitor-bff/monitor/alerts?monitorId=${monitorId}`, { headers });
    expect(((await alerts.json()).data.list as unknown[]).length).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  return { ...account, monitorId };
}

/** Every route of the app (route-table.ts), with the page's own h1 once it has loaded. */
async function walkPrivateRoutes(page: Page, monitorId: string) {
  const encoded = encodeURIComponent(monitorId);
  await visit(page, '/app/monitor', 'Monitors');
  await visit(page, `/app/monitor?monitorId=${encoded}`, 'Storefront that is down');
  await visit(page, '/app/monitor_create', 'New monitor');
  await visit(page, `/app/monitor_edit?monitorId=${encoded}`, 'Edit monitor');
  await visit(page, '/app/alerts', 'Alerts');
  await visit(page, '/app/settings', 'Settings');
  await visit(page, '/app/pricing', 'Choose your plan');
  await visit(page, '/app/onboarding', 'Where should we reach you?');
  await visit(page, '/app/payment-success', 'There is no order to show');
  await visit(page, '/app/payment-error', 'There is no order to show');
  await visit(page, '/app/no-such-page', { text: 'This page does not exist' });
}

async function walkPublicRoutes(page: Page) {
  await visit(page, '/app/login', /Sign in/);
  await visit(page, `/app/login?reset=1&email=${encodeURIComponent(uniqueEmail())}`, /password/i);
  await visit(page, '/app/register', 'Create your Vigil account');
  await visit(page, '/app/oauth?error=access_denied', /.+/);
}

test.describe('on a phone (390 × 844)', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test('every page fits the screen, and every action, Acknowledge first, is within thumb reach', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const account = await accountWithAnOpenAlert(request);

    await walkPublicRoutes(page);
    await signInThroughForm(page, account.email);
    await expect(page).toHaveURL(/\/app\/monitor$/);
    await walkPrivateRoutes(page, account.monitorId);

    // The navbar, opened from the burger, fits too.
    await page.goto('/app/alerts');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    // Wholly in view: measured while the navbar still slides in, its links sit partly off-screen.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }),
    ).toBeInViewport({ ratio: 1 });
    await expectFits(page, 'navbar open');
    await page.getByRole('button', { name: 'Close navigation' }).click();

    // Acknowledge is on screen without scrolling sideways, and pressing it works there.
    const acknowledge = page.getByRole('button', { name: /^Acknowledge / });
    await expect(acknowledge).toBeVisible();
    await expect(acknowledge).toBeInViewport();
    await acknowledge.tap();
    await expect(page.getByRole('main').getByText('Acknowledged', { exact: true }).first()).toBeVisible();
    // The toast slides in from the right edge; measure it once it has arrived.
    await expect(page.getByRole('alert').filter({ hasText: 'Alert acknowledged' })).toBeInViewport({
      ratio: 1,
    });
    await expectFits(page, 'alerts after acknowledging');

    // The alert's timeline opens inside its card and fits too, long errors wrapped.
    await page.getByRole('button', { name: /^Timeline of .* on Storefront that is down$/ }).tap();
    const timeline = page.getByRole('list', { name: /^Timeline of .* on Storefront that is down$/ });
    await expect(timeline).toContainText('Incident opened');
    await expect(timeline.getByRole('listitem').last()).toHaveText('Acknowledged, still failing');
    await expectFits(page, 'alert timeline open');

    // The account menu's Log out.
    await page.getByRole('button', { name: `Account menu for ${account.email}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeInViewport();
    await expectFits(page, 'account menu open');
    await page.keyboard.press('Escape');

    // The monitor form with a verified address: the "Verified" badge does not cover the address.
    await page.goto('/app/monitor_create');
    const form = page.getByRole('form', { name: 'New monitor' });
    await form.getByRole('checkbox', { name: /^Email/ }).check();
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await expectFits(page, 'monitor form with an address to verify');
    await verifyEmailInForm(page, form, account.email);
    await form.getByRole('switch', { name: /^Keyword/ }).check();
    await expectFits(page, 'monitor form with a verified address');

    // Each other service's part of the form (connect a shop or an ad account first).
    for (const service of ['Shopify store', 'Google Ads', 'Meta ads']) {
      await form.getByRole('radio', { name: new RegExp(`^${service}`) }).click();
      await expectFits(page, `monitor form for ${service}`);
    }
  });
});

test.describe('on a desktop (1440 × 900)', () => {
  test.use({ viewport: DESKTOP });

  test('no page scrolls sideways', async ({ page, request }) => {
    test.setTimeout(90_000);
    const account = await accountWithAnOpenAlert(request);
    await walkPublicRoutes(page);
    await signInThroughForm(page, account.email);
    await expect(page).toHaveURL(/\/app\/monitor$/);
    await walkPrivateRoutes(page, account.monitorId);
  });
});
