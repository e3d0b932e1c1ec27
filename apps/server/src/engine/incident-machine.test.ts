import { describe, expect, it } from 'vitest';
import type { ConditionResult } from '../checks/checker.ts';
import { MINUTE_MS } from '../lib/clock.ts';
import { createTestClock } from '../test/test-clock.ts';
import {
  acknowledge,
  applyCheck,
  type CheckState,
  repeatDue,
  type RepeatCandidate,
} from './incident-machine.ts';
import { groupOffsetMs, nextAlignedSlot, nextSlot } from './slots.ts';

const down = (key = 'http_status', summary = 'HTTP 503 from https://shop.example'): ConditionResult => ({
  key,
  ok: false,
  summary,
});
const up = (key = 'http_status'): ConditionResult => ({
  key,
  ok: true,
  summary: 'HTTP 200 from https://shop.example',
});

describe('applyCheck()', () => {
  const rules = { confirmations: 3, repeatIntervalMinutes: 15 };

  /** Feeds checks one after another, as the engine does, and collects every transition. */
  function run(checks: ConditionResult[][], start: CheckState = {}, r = rules) {
    const clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
    let state = start;
    const log: { at: Date; kind: string; key: string }[] = [];
    let status = 'up';
    for (const results of checks) {
      const verdict = applyCheck(r, state, results, clock.now());
      state = verdict.state;
      status = verdict.status;
      for (const t of verdict.transitions) log.push({ at: clock.now(), kind: t.kind, key: t.conditionKey });
      clock.advance(MINUTE_MS);
    }
    return { state, log, status };
  }

  it('opens an incident only after `confirmations` failures in a row', () => {
    expect(run([[down()], [down()]]).log).toEqual([]);
    const { log, state, status } = run([[down()], [down()], [down()]]);
    expect(log).toEqual([{ at: new Date('2026-03-01T10:02:00Z'), kind: 'open', key: 'http_status' }]);
    expect(state).toEqual({ http_status: { failures: 3, open: true } });
    expect(status).toBe('down');
  });

  it('opens at once on a failure the provider reported as a fact, whatever the confirmations', () => {
    const fact: ConditionResult = {
      ...down('product_out_of_stock', 'Blue hoodie (M) is out of stock'),
      confirmed: true,
    };
    expect(run([[fact]]).log).toEqual([
      { at: new Date('2026-03-01T10:00:00Z'), kind: 'open', key: 'product_out_of_stock' },
    ]);
  });

  it('starts counting again after a success between failures', () => {
    expect(run([[down()], [down()], [up()], [down()], [down()]]).log).toEqual([]);
  });

  it('opens one incident per condition and never a second while one is open', () => {
    const { log } = run([
      [down('http_status'), down('keyword', 'Keyword "Add to cart" not found')],
      [down('http_status'), up('keyword')],
      [down('http_status'), down('keyword')],
      [down('http_status'), down('keyword')],
      [down('http_status'), down('keyword')],
      [down('http_status'), down('keyword')],
    ]);
    expect(log.map(({ kind, key }) => `${kind} ${key}`)).toEqual(['open http_status', 'open keyword']);
  });

  it('gives the opened incident its first repeat one interval later, or none when repeats are off', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    const opened = applyCheck({ confirmations: 1, repeatIntervalMinutes: 15 }, {}, [down()], now)
      .transitions[0];
    expect(opened).toMatchObject({ kind: 'open', nextAlertAt: new Date('2026-03-01T10:15:00Z') });
    const once = applyCheck({ confirmations: 1, repeatIntervalMinutes: 0 }, {}, [down()], now).transitions[0];
    expect(once).toMatchObject({ kind: 'open', nextAlertAt: null });
  });

  it('resolves after one passing check and reports the monitor up', () => {
    const { log, state, status } = run([[down()], [down()], [down()], [down()], [up()]]);
    expect(log.map((t) => t.kind)).toEqual(['open', 'resolve']);
    expect(state).toEqual({ http_status: { failures: 0, open: false } });
    expect(status).toBe('up');
  });

  it('reports a failure still being confirmed as confirming, until it opens or a check passes', () => {
    const rules3 = { confirmations: 3, repeatIntervalMinutes: 0 };
    const first = applyCheck(rules3, {}, [down()], new Date());
    expect(first.status).toBe('confirming');
    const second = applyCheck(rules3, first.state, [down()], new Date());
    expect(second.status).toBe('confirming');
    expect(applyCheck(rules3, second.state, [down()], new Date()).status).toBe('down');
    expect(applyCheck(rules3, second.state, [up()], new Date()).status).toBe('up');
  });

  it('keeps the state of a condition it could not judge', () => {
    const open: CheckState = { keyword: { failures: 3, open: true } };
    const verdict = applyCheck(
      rules,
      open,
      [{ key: 'keyword', ok: null, summary: 'Not checked' }],
      new Date(),
    );
    expect(verdict).toEqual({ state: open, transitions: [], status: 'down' });
  });

  it('resolves the incident of a condition that was switched off', () => {
    const verdict = applyCheck(
      rules,
      { keyword: { failures: 3, open: true } },
      [up('http_status')],
      new Date(),
    );
    expect(verdict.transitions).toEqual([
      { kind: 'resolve', conditionKey: 'keyword', summary: 'This condition is no longer checked' },
    ]);
    expect(verdict.status).toBe('up');
  });
});

describe('repeatDue()', () => {
  const rules = { repeatIntervalMinutes: 15 };
  const opened: RepeatCandidate = {
    state: 'open',
    alertCount: 1,
    nextAlertAt: new Date('2026-03-01T10:15:00Z'),
  };

  it('is due at the interval, numbers the reminders, and schedules the next from now', () => {
    const clock = createTestClock(new Date('2026-03-01T10:14:59Z'));
    expect(repeatDue(opened, rules, clock.now())).toBeNull();
    clock.advance(1000);
    const first = repeatDue(opened, rules, clock.now());
    expect(first).toEqual({
      event: 'repeat-1',
      alertCount: 2,
      nextAlertAt: new Date('2026-03-01T10:30:00Z'),
    });
    const second = repeatDue(
      { ...opened, alertCount: 2, nextAlertAt: first!.nextAlertAt },
      rules,
      new Date('2026-03-01T10:30:00Z'),
    );
    expect(second?.event).toBe('repeat-2');
  });

  it('sends one reminder, not a burst, after waiting long (a paused monitor started again)', () => {
    const late = repeatDue(opened, rules, new Date('2026-03-01T14:00:00Z'));
    expect(late).toEqual({ event: 'repeat-1', alertCount: 2, nextAlertAt: new Date('2026-03-01T14:15:00Z') });
  });

  it('stops once acknowledged, and never repeats when repeats are off', () => {
    const acknowledged = acknowledge(opened);
    expect(acknowledged).toMatchObject({ state: 'acknowledged', nextAlertAt: null });
    expect(repeatDue(acknowledged, rules, new Date('2026-03-02T00:00:00Z'))).toBeNull();
    expect(repeatDue(opened, { repeatIntervalMinutes: 0 }, new Date('2026-03-02T00:00:00Z'))).toBeNull();
    expect(repeatDue({ ...opened, state: 'resolved' }, rules, new Date('2026-03-02T00:00:00Z'))).toBeNull();
  });
});

describe('nextSlot()', () => {
  const at = (s: string) => new Date(`2026-03-01T10:${s}Z`);

  it('stays on the grid of the first slot however late the check ran', () => {
    expect(nextSlot(at('00:00'), 60, at('00:00.800'))).toEqual(at('01:00'));
    expect(nextSlot(at('00:00'), 60, at('00:59'))).toEqual(at('01:00'));
  });

  it('keeps a slot that is already due when less than one interval behind', () => {
    expect(nextSlot(at('00:00'), 60, at('01:30'))).toEqual(at('01:00'));
  });

  it('skips to the latest due slot after falling behind by several intervals, without a burst', () => {
    expect(nextSlot(at('00:00'), 60, at('07:30'))).toEqual(at('07:00'));
    expect(nextSlot(at('00:00'), 30, at('02:00'))).toEqual(at('02:00'));
  });
});

describe('nextAlignedSlot()', () => {
  const at = (s: string) => new Date(`2026-03-01T10:${s}Z`);

  it('moves a slot off the grid onto the interval grid shared by every monitor of a group', () => {
    expect(nextAlignedSlot(at('00:17.250'), 60, at('00:17.900'))).toEqual(at('01:00'));
    expect(nextAlignedSlot(at('01:00'), 60, at('01:00.400'))).toEqual(at('02:00'));
    expect(nextAlignedSlot(at('00:40'), 300, at('00:41'))).toEqual(at('05:00'));
  });

  it('shifts the grid by the group’s offset, and skips to the latest due slot after falling behind', () => {
    expect(nextAlignedSlot(at('00:17.250'), 60, at('00:17.900'), 20_000)).toEqual(at('00:20'));
    expect(nextAlignedSlot(at('00:20'), 60, at('00:20.100'), 20_000)).toEqual(at('01:20'));
    expect(nextAlignedSlot(at('00:00'), 60, at('07:30'))).toEqual(at('07:00'));
    expect(nextAlignedSlot(at('00:00'), 60, at('07:30'), 45_000)).toEqual(at('06:45'));
  });
});

describe('groupOffsetMs()', () => {
  it('gives each group a stable offset within the interval, spread across it', () => {
    expect(groupOffsetMs('shop-a', 60)).toBe(groupOffsetMs('shop-a', 60));
    const offsets = Array.from({ length: 1000 }, (_, i) => groupOffsetMs(`connection-${i}`, 60));
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(60_000);
    // Spread: every 6-second tenth of the minute holds some groups.
    const tenths = new Set(offsets.map((offset) => Math.floor(offset / 6000)));
    expect(tenths.size).toBe(10);
  });
});
