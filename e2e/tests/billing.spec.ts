import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  advanceToNextRenewal,
  buyPlan,
  createReadyAccount,
  createWebsiteMonitor,
  openCheckout,
  payOnCheckout,
  planDate,
  readSandboxMail,
  reloadUntilText,
  sandboxSubscription,
  signInThroughForm,
  TEST_CARDS,
} from './helpers.ts';

const DAY_MS = 86_400_000;

/** A new Free account, signed in through the form and on its monitors. */
async function signedInFreeAccount(page: Page, request: APIRequestContext) {
  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  return account;
}

/** The pricing page's "Your plan" panel. */
function yourPlan(page: Page): Locator {
  return page.getByRole('region', { name: 'Your plan' });
}

/** The SMS and call checkboxes of the monitor form, and the links to plans that come with them. */
function phoneChannels(form: Locator) {
  return {
    sms: form.getByRole('checkbox', { name: /^SMS/ }),
    call: form.getByRole('checkbox', { name: /^Phone call/ }),
    plansLinks: form.getByRole('link', { name: /^See plans with (SMS|calls)$/ }),
  };
}

test('a Free merchant buys Pro through Checkout: the payment page confirms it, calls and SMS open up, and the plan shows Active', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await signedInFreeAccount(page, request);

  // On Free the form holds calls and SMS back, pointing at the plans that have them.
  await page.getByRole('link', { name: 'Create your first monitor' }).click();
  const onFree = phoneChannels(page.getByRole('form', { name: 'New monitor' }));
  await expect(onFree.sms).toBeDisabled();
  await expect(onFree.call).toBeDisabled();
  await expect(onFree.plansLinks).toHaveCount(2);

  await page.goto('/app/pricing');
  await expect(yourPlan(page)).toContainText('Free period');
  await openCheckout(page, 'Pro');
  await expect(page.getByText('Vigil Pro — $49.00 per month')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(account.email);
  await payOnCheckout(page, TEST_CARDS.succeeds);

  await expect(page).toHaveURL(/\/app\/payment-success\?order=/);
  await expect(page.getByRole('heading', { name: "You're on Pro", level: 1 })).toBeVisible({
    timeout: 20_000,
  });
  const subscription = await sandboxSubscription(request, account.email);
  const renewsOn = planDate(subscription.currentPeriodEnd);
  await expect(page.getByText(`Pro runs until ${renewsOn} and renews automatically.`)).toBeVisible();
  await expect(page.getByText('Pro, billed monthly: $49.00')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/monitor$/);

  await page.getByRole('link', { name: 'Create your first monitor' }).click();
  const form = page.getByRole('form', { name: 'New monitor' });
  const onPro = phoneChannels(form);
  await expect(onPro.sms).toBeEnabled();
  await expect(onPro.call).toBeEnabled();
  await expect(onPro.plansLinks).toHaveCount(0);
  await expect(
    form.getByText(/^A text message when an incident opens.*Your Pro plan includes/),
  ).toBeVisible();

  await page.goto('/app/pricing');
  const panel = yourPlan(page);
  await expect(panel.getByText('Pro', { exact: true })).toBeVisible();
  await expect(panel.getByText('Active', { exact: true })).toBeVisible();
  await expect(panel).toContainText('Billed monthly');
  await expect(panel).toContainText(`Renews on ${renewsOn} — next charge $49.00.`);
  await expect(panel.getByRole('button', { name: 'Manage billing' })).toBeVisible();
});

test('a declined card stays on Checkout with the decline; back in Vigil the payment page says why, and Try again opens Checkout again', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await signedInFreeAccount(page, request);
  await page.goto('/app/pricing');
  await openCheckout(page, 'Pro');
  await payOnCheckout(page, TEST_CARDS.declined);

  await expect(page).toHaveURL(/\/sandbox\/stripe\/checkout\//);
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  const back = page.getByRole('link', { name: '← Back to Vigil' });
  const orderId = new URL((await back.getAttribute('href'))!).searchParams.get('order');
  expect(orderId).toBeTruthy();
  // Stripe tells Vigil of the decline by webhook, while the person reads the message on Checkout: the error
  // page reads the order once, so it is read after the decline has reached Vigil.
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/monitor-bff/plan-order?order=${orderId}`, {
          headers: { Authorization: account.token },
        });
        return ((await answer.json()).data as { failure: { reason: string } | null }).failure?.reason;
      },
      { timeout: 20_000 },
    )
    .toBe('declined');

  await back.click();
  await expect(page).toHaveURL(new RegExp(`/app/payment-error\\?order=${orderId}$`));
  await expect(page.getByRole('heading', { name: 'The payment did not go through', level: 1 })).toBeVisible();
  const reason = page.getByText(/^Your card was declined\./);
  await expect(reason).toBeVisible();
  // The reason follows the words "Your card was declined." once, not the same sentence twice.
  await expect(reason).not.toHaveText(/declined\..*declined\./);
  await expect(page.getByText('Pro, billed monthly: $49.00')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to plans' })).toBeVisible();

  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/sandbox\/stripe\/checkout\//);
  await expect(page.getByRole('heading', { name: 'Subscribe to Vigil Pro', level: 1 })).toBeVisible();
  // Another card on the same Checkout pays the same order.
  await payOnCheckout(page, TEST_CARDS.succeeds);
  await expect(page).toHaveURL(new RegExp(`/app/payment-success\\?order=${orderId}$`));
  await expect(page.getByRole('heading', { name: "You're on Pro", level: 1 })).toBeVisible({
    timeout: 20_000,
  });
});

test('a renewal that fails keeps Pro through the grace period, then the plan ends: Free limits pause the newest monitors, and both are emailed', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const account = await signedInFreeAccount(page, request);
  await buyPlan(page, 'Pro', { card: TEST_CARDS.renewalFails });
  const names = ['Shop 1', 'Shop 2', 'Shop 3', 'Shop 4', 'Shop 5'];
  for (const name of names) await createWebsiteMonitor(request, account.token, name);
  await page.goto('/app/monitor');
  const rows = page.getByRole('row').filter({ hasText: /Shop \d/ });
  await expect(rows).toHaveCount(5);
  await expect(page.getByText('Paused by plan')).toHaveCount(0);

  const renewal = await advanceToNextRenewal(page, request, account.email);
  expect(renewal).toContain('is past due');
  const pastDue = await sandboxSubscription(request, account.email);
  expect(pastDue.status).toBe('past_due');
  // Pro keeps running for 7 days from the start of the period that was not paid.
  const graceOn = planDate(new Date(pastDue.currentPeriodStart).getTime() + 7 * DAY_MS);

  await page.goto('/app/pricing');
  const panel = yourPlan(page);
  await reloadUntilText(page, panel, 'Payment failed');
  await expect(panel.getByText('Pro', { exact: true })).toBeVisible();
  await expect(panel.getByRole('alert')).toContainText(
    `Your last payment failed. Update your card by ${graceOn} to keep Pro.`,
  );
  const graceMail = await readSandboxMail(page, account.email, /Your payment for Vigil Pro failed/);
  expect(graceMail).toContain('We could not charge 49.00 USD for your Vigil Pro plan.');
  expect(graceMail).toContain('Your monitors keep running on Pro until');

  const final = await advanceToNextRenewal(page, request, account.email);
  expect(final).toContain('is canceled');
  await reloadUntilText(page, panel, 'Free period');
  await expect(panel.getByText('Free', { exact: true })).toBeVisible();
  await expect(panel).not.toContainText('Payment failed');
  await expect(page.getByRole('button', { name: 'Choose Pro' })).toBeEnabled();

  // The oldest three keep running within Free's 3 monitors; the two newest are paused, saying why.
  await page.goto('/app/monitor');
  await expect(rows).toHaveCount(5);
  for (const name of names) {
    const row = rows.filter({ hasText: name });
    if (name === 'Shop 4' || name === 'Shop 5') {
      await expect(row.getByText('Paused by plan', { exact: true })).toBeVisible();
      await expect(row).toContainText(
        /Paused on .*: the Free plan runs up to 3 monitors\. Choose a bigger plan/,
      );
    } else {
      await expect(row.getByText('Paused by plan', { exact: true })).toHaveCount(0);
    }
  }
  const endedMail = await readSandboxMail(page, account.email, /Your Vigil Pro plan ended/);
  expect(endedMail).toMatch(/Paused: Shop [45], Shop [45]\./);
  // The last retry's failure ends the plan: no second "keeps running while the payment is retried".
  const mailbox = await page.context().newPage();
  await mailbox.goto('/sandbox');
  await expect(
    mailbox
      .getByRole('row')
      .filter({ hasText: account.email })
      .filter({ hasText: /payment for Vigil/ }),
  ).toHaveCount(1);
  await mailbox.close();
});

test('a merchant cancels Starter in the billing portal: the plan says when it ends, and at that renewal it ends', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await signedInFreeAccount(page, request);
  await buyPlan(page, 'Starter', { period: 'Yearly' });
  const { currentPeriodEnd } = await sandboxSubscription(request, account.email);
  const endsOn = planDate(currentPeriodEnd);

  await page.goto('/app/pricing');
  const panel = yourPlan(page);
  await expect(panel.getByText('Active', { exact: true })).toBeVisible();
  await expect(panel).toContainText('Billed yearly');
  await expect(panel).toContainText(`Renews on ${endsOn} — next charge $190.00.`);
  await panel.getByRole('button', { name: 'Manage billing' }).click();

  await expect(page).toHaveURL(/\/sandbox\/stripe\/portal\//);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await page
    .getByRole('region', { name: 'Vigil Starter' })
    .getByRole('button', { name: 'Cancel plan' })
    .click();
  await expect(page.getByRole('status')).toContainText('Your plan is canceled: it stays active until');
  await page.getByRole('link', { name: '← Return to Vigil' }).click();

  await expect(page).toHaveURL(/\/app\/pricing$/);
  await reloadUntilText(page, panel, 'Canceled');
  await expect(panel.getByText('Starter', { exact: true })).toBeVisible();
  await expect(panel).toContainText(`Ends on ${endsOn}. You will not be charged again.`);

  const ended = await advanceToNextRenewal(page, request, account.email);
  expect(ended).toContain('is canceled');
  await reloadUntilText(page, panel, 'Free period');
  await expect(panel.getByText('Free', { exact: true })).toBeVisible();
  await expect(panel).not.toContainText('Canceled');
  await expect(page.getByRole('button', { name: 'Choose Starter' })).toBeEnabled();
});
