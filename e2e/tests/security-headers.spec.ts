import { expect, test } from '@playwright/test';
import { createReadyAccount, signInThroughForm } from './helpers.ts';

test('the app, its forms, pricing, the API docs and the sandbox run under their Content Security Policy without a violation', async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await page.exposeFunction('reportCspViolation', (report: string) => violations.push(report));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI} on ${location.pathname}`);
    });
  });

  const account = await createReadyAccount(request);
  await signInThroughForm(page, account.email);
  await expect(page).toHaveURL(/\/app\/monitor$/);
  await expect(page.getByRole('link', { name: 'Create your first monitor' })).toBeVisible();

  await page.getByRole('link', { name: 'Create your first monitor' }).click();
  await expect(page.getByRole('form', { name: 'New monitor' })).toBeVisible();

  await page.goto('/app/pricing');
  await expect(page.getByRole('button', { name: 'Choose Free' })).toBeVisible();

  await page.goto('/docs');
  await expect(page.getByText('Vigil API').first()).toBeVisible();

  await page.goto('/sandbox');
  await expect(page.getByRole('heading').first()).toBeVisible();

  expect(violations).toEqual([]);
});
