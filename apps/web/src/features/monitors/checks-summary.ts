import type { CheckResult } from '@vigil/contracts';
import { formatClock, formatDateTime, formatMs } from '../../lib/format-time.ts';

/** "02:05 PM" today, "Nov 23, 02:05 PM" before. */
export function formatCheckTime(iso: string, now: number = Date.now()): string {
  const at = new Date(iso);
  return at.toDateString() === new Date(now).toDateString()
    ? formatClock(at, { twoDigitHour: true })
    : formatDateTime(iso);
}

/** Why a check failed, in a few words: its HTTP status when the site answered with an error, else the error. */
export function failureReason(check: CheckResult): string {
  const { statusCode, error } = check;
  if (statusCode !== null && (statusCode < 200 || statusCode >= 400)) return `HTTP ${statusCode}`;
  return error ?? (statusCode !== null ? `HTTP ${statusCode}` : 'no answer');
}

/** One check as its bar's tooltip says it: when, passed or failed, response time, HTTP status, error. */
export function describeCheck(check: CheckResult, now: number = Date.now()): string {
  const parts = [formatCheckTime(check.at, now), check.ok ? 'Passed' : 'Failed'];
  if (check.responseMs !== null) parts.push(formatMs(check.responseMs));
  const status = check.statusCode === null ? null : `HTTP ${check.statusCode}`;
  // The error often starts with the status ("HTTP 503 from …"): said once.
  if (status && !check.error?.includes(status)) parts.push(status);
  if (check.error) parts.push(check.error);
  return parts.join(' · ');
}

/**
 * The status bar's text alternative: how many of the last checks passed and failed, and when the last
 * failure was and why ("Last 100 checks: 97 passed, 3 failed; last failure 02:05 PM (HTTP 503).").
 */
export function summariseChecks(checks: readonly CheckResult[], now: number = Date.now()): string {
  if (checks.length === 0) return 'No checks have run yet.';
  const failures = checks.filter((check) => !check.ok);
  const passed = checks.length - failures.length;
  const last = failures.at(-1);
  if (checks.length === 1) {
    const only = checks[0]!;
    const when = formatCheckTime(only.at, now);
    return only.ok
      ? `Last check: passed at ${when}.`
      : `Last check: failed at ${when} (${failureReason(only)}).`;
  }
  const counts =
    failures.length === 0 ? `all ${passed} passed` : `${passed} passed, ${failures.length} failed`;
  const lastFailure = last ? `; last failure ${formatCheckTime(last.at, now)} (${failureReason(last)})` : '';
  return `Last ${checks.length} checks: ${counts}${lastFailure}.`;
}
