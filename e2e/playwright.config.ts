import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// The browser journeys run against the built app, started as `npm start` would start it, with its own
// PGlite folder and ports so a running Vigil on :3000 is left alone.
const port = Number(process.env.E2E_PORT ?? 3199);
export const baseURL = `http://localhost:${port}`;
const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? join(root, 'e2e/test-results/report.json') },
    ],
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
      ],
    },
  },
  outputDir: join(root, 'e2e/test-results'),
  webServer: {
    command: 'node apps/server/dist/main.js',
    cwd: root,
    url: `${baseURL}/healthz`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'vigil-e2e-')),
      SANDBOX_SMTP_PORT: String(port + 1),
      SANDBOX_STRIPE_PORT: String(port + 2),
      LOG_LEVEL: 'warn',
      // Accounts made through the API (createReadyAccount) each come from their own X-Forwarded-For address,
      // as separate people would: registrations are limited to 20 an hour per address.
      TRUST_PROXY: 'on',
    },
  },
});
