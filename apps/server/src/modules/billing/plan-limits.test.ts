import { describe, expect, it } from 'vitest';
import { accountNoticeEmail } from '../../notify/account-notice-email.ts';
import { findPlan, FREE_PLAN, NO_PLAN } from '../plans/plan-catalogue.ts';
import { coverageSummary } from './plan-coverage.service.ts';
import { monitorsToRun } from './plan-limits.ts';

const STARTER = findPlan('Starter')!;
const PRO = findPlan('Pro')!;

/** Monitors oldest first, as the repository reads them. */
const monitor = (
  id: string,
  state: { paused?: boolean; pauseReason?: string | null; connectionId?: string | null } = {},
) => ({
  id,
  paused: state.paused ?? false,
  pauseReason: state.pauseReason ?? null,
  connectionId: state.connectionId ?? null,
});
const ids = (list: { id: string }[]) => list.map((m) => m.id);

describe('monitorsToRun()', () => {
  it('keeps the oldest running monitors up to the count and pauses the newest', () => {
    const monitors = ['a', 'b', 'c', 'd', 'e'].map((id) => monitor(id));
    const { keep, pause, resume } = monitorsToRun(FREE_PLAN, [], monitors);
    expect(ids(keep)).toEqual(['a', 'b', 'c']);
    expect(ids(pause)).toEqual(['d', 'e']);
    expect(resume).toEqual([]);
  });

  it('pauses monitors on accounts beyond the plan first, counting accounts oldest first', () => {
    const accounts = [{ id: 'shop-1' }, { id: 'shop-2' }];
    const monitors = [
      monitor('on-second', { connectionId: 'shop-2' }),
      monitor('site'),
      monitor('on-first', { connectionId: 'shop-1' }),
      monitor('gone', { connectionId: 'disconnected-shop' }),
      monitor('newest'),
    ];
    const { keep, pause } = monitorsToRun(FREE_PLAN, accounts, monitors);
    expect(ids(keep)).toEqual(['site', 'on-first', 'gone']);
    expect(ids(pause)).toEqual(['on-second', 'newest']);
  });

  it('resumes what Vigil paused, oldest first, while it fits, and never what the person paused', () => {
    const monitors = [
      monitor('mine', { paused: true }),
      monitor('vigil-1', { paused: true, pauseReason: 'Paused on …' }),
      monitor('running'),
      monitor('vigil-2', { paused: true, pauseReason: 'Paused on …', connectionId: 'shop-2' }),
      monitor('vigil-3', { paused: true, pauseReason: 'Paused on …' }),
      monitor('vigil-4', { paused: true, pauseReason: 'Paused on …' }),
    ];
    const accounts = [{ id: 'shop-1' }, { id: 'shop-2' }];
    const { keep, resume } = monitorsToRun(FREE_PLAN, accounts, monitors);
    expect(ids(keep)).toEqual(['running']);
    // vigil-2 watches the second shop, beyond Free's one account; Free has room for two more.
    expect(ids(resume)).toEqual(['vigil-1', 'vigil-3']);
    expect(ids(monitorsToRun(STARTER, accounts, monitors).resume)).toEqual([
      'vigil-1',
      'vigil-2',
      'vigil-3',
      'vigil-4',
    ]);
  });

  it('runs nothing with no plan', () => {
    const { keep, pause, resume } = monitorsToRun(
      NO_PLAN,
      [],
      [monitor('a'), monitor('b', { paused: true, pauseReason: 'Paused on …' })],
    );
    expect(keep).toEqual([]);
    expect(ids(pause)).toEqual(['a']);
    expect(resume).toEqual([]);
  });
});

describe('coverageSummary()', () => {
  it('says shops, ad accounts or accounts, and what the plan covers of each', () => {
    expect(
      coverageSummary(
        STARTER,
        { providers: ['shopify', 'shopify', 'shopify', 'shopify'], covered: 3 },
        { total: 4, covered: 4 },
      ),
    ).toBe('Starter covers 3 of your 4 shops and all 4 monitors.');
    expect(
      coverageSummary(PRO, { providers: ['shopify', 'google'], covered: 2 }, { total: 4, covered: 4 }),
    ).toBe('Pro covers all 2 of your accounts and all 4 monitors.');
    expect(
      coverageSummary(FREE_PLAN, { providers: ['google', 'meta'], covered: 1 }, { total: 5, covered: 3 }),
    ).toBe('Free covers 1 of your 2 ad accounts and 3 of your 5 monitors.');
    expect(coverageSummary(FREE_PLAN, { providers: ['shopify'], covered: 1 }, { total: 1, covered: 1 })).toBe(
      'Free covers your shop and your monitor.',
    );
    expect(coverageSummary(FREE_PLAN, { providers: [], covered: 0 }, { total: 2, covered: 2 })).toBe(
      'Free covers all 2 monitors.',
    );
    expect(coverageSummary(FREE_PLAN, { providers: [], covered: 0 }, { total: 0, covered: 0 })).toBe(
      'Free runs up to 3 monitors and 1 connected account.',
    );
  });
});

describe('accountNoticeEmail()', () => {
  it('makes app paths links on the public URL and keeps the text readable', () => {
    const email = accountNoticeEmail(
      {
        recipient: 'owner@shop.example',
        subject: 'Your Vigil Free period ended',
        text: 'Paused: <Main> & more.\n\nChoose a plan: /app/pricing\nOr https://vigil.example/app/pricing.',
      },
      'https://vigil.example',
    );
    expect(email.to).toEqual(['owner@shop.example']);
    expect(email.text).toBe(
      'Paused: <Main> & more.\n\nChoose a plan: https://vigil.example/app/pricing\nOr https://vigil.example/app/pricing.',
    );
    expect(email.html).toContain('<p>Paused: &#60;Main&#62; &#38; more.</p>');
    expect(email.html).toContain(
      'Choose a plan: <a href="https://vigil.example/app/pricing">https://vigil.example/app/pricing</a><br>',
    );
    expect(email.html).toContain(
      '<a href="https://vigil.example/app/pricing">https://vigil.example/app/pricing</a>.</p>',
    );
  });
});
