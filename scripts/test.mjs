// `npm test`: every test of the project. Unit and API tests (vitest, on PGlite and PostgreSQL), then the
// browser journeys (Playwright in Chromium) against the built app. Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'vigil-test-'));
const only = process.argv[2]; // optional: 'unit' or 'e2e'

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

let passed = 0;
let failed = 0;
let exitCode = 0;

if (only !== 'e2e') {
  const file = join(reports, 'vitest.json');
  const code = run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  exitCode ||= code;
  const report = readJson(file);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  } else failed += 1;
}

if (only !== 'unit') {
  buildIfStale();
  const file = join(reports, 'playwright.json');
  // Run even when the unit tests failed (`exitCode ||= run(...)` would skip it), so one run reports every failure.
  const code = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  });
  exitCode ||= code;
  const report = readJson(file);
  if (report) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
  } else failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode || (failed > 0 ? 1 : 0));
