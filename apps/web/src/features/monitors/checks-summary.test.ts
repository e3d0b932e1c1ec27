import type { CheckResult } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { describeCheck, summariseChecks } from './checks-summary.ts';

// Local times, so the expected "today" and clock strings hold in any time zone.
const NOW = new Date(2026, 2, 10, 15, 0).getTime();
const at = (hours: number, minutes: number, day = 10) => new Date(2026, 2, day, hours, minutes).toISOString();
const passed = (iso: string, responseMs = 120): CheckResult => ({
  at: iso,
  ok: true,
  responseMs,
  statusCode: 200,
  error: null,
});
const failed = (iso: string, statusCode: number | null, error: string): CheckResult => ({
  at: iso,
  ok: false,
  responseMs: null,
  statusCode,
  error,
});

describe('summariseChecks()', () => {
  it('counts passes and failures and names the last failure with its HTTP status', () => {
    const checks = [
      ...Array.from({ length: 96 }, (_, i) => passed(at(13, 0 + (i % 60)))),
      failed(at(13, 50), null, 'https://shop.example refused the connection'),
      failed(at(14, 5), 503, 'HTTP 503 from https://shop.example'),
      passed(at(14, 10)),
      passed(at(14, 15)),
    ];
    expect(summariseChecks(checks, NOW)).toBe(
      'Last 100 checks: 98 passed, 2 failed; last failure 02:05 PM (HTTP 503).',
    );
  });

  it('gives the error of a failure without an HTTP error status, and the date of one before today', () => {
    const checks = [
      passed(at(9, 0, 9)),
      failed(at(9, 5, 9), null, 'No answer from https://shop.example within 10 s'),
    ];
    expect(summariseChecks(checks, NOW)).toBe(
      'Last 2 checks: 1 passed, 1 failed; last failure Mar 9, 09:05 AM (No answer from https://shop.example within 10 s).',
    );
  });

  it('says when all passed, a single check, and no checks', () => {
    expect(summariseChecks([passed(at(14, 0)), passed(at(14, 5)), passed(at(14, 10))], NOW)).toBe(
      'Last 3 checks: all 3 passed.',
    );
    expect(summariseChecks([passed(at(14, 0))], NOW)).toBe('Last check: passed at 02:00 PM.');
    expect(summariseChecks([failed(at(14, 0), 500, 'HTTP 500 from x')], NOW)).toBe(
      'Last check: failed at 02:00 PM (HTTP 500).',
    );
    expect(summariseChecks([], NOW)).toBe('No checks have run yet.');
  });
});

describe('describeCheck()', () => {
  it('says when, the result, the response time and status, and the error once', () => {
    expect(describeCheck(passed(at(14, 0), 230), NOW)).toBe('02:00 PM · Passed · 230 ms · HTTP 200');
    expect(describeCheck(failed(at(14, 5), 503, 'HTTP 503 from https://shop.example'), NOW)).toBe(
      '02:05 PM · Failed · HTTP 503 from https://shop.example',
    );
    expect(describeCheck(failed(at(14, 5), null, 'https://shop.example refused the connection'), NOW)).toBe(
      '02:05 PM · Failed · https://shop.example refused the connection',
    );
  });
});
