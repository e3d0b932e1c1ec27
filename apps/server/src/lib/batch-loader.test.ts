import { describe, expect, it, vi } from 'vitest';
import { createBatchLoader, createBusyBatchLoader } from './batch-loader.ts';

describe('createBatchLoader()', () => {
  it('reads the keys asked for in the same moment with one call, each waiter getting its own', async () => {
    const loadMany = vi.fn(
      async (keys: string[]) => new Map(keys.filter((k) => k !== 'b').map((k) => [k, k.toUpperCase()])),
    );
    const load = createBatchLoader(loadMany, 5);
    const answers = await Promise.all([load('a'), load('b'), load('a'), load('c')]);
    expect(answers).toEqual(['A', undefined, 'A', 'C']);
    expect(loadMany).toHaveBeenCalledTimes(1);
    expect(loadMany).toHaveBeenCalledWith(['a', 'b', 'c']);
    expect(await load('d')).toBe('D');
    expect(loadMany).toHaveBeenCalledTimes(2);
  });

  it('fails every lookup of a batch whose read fails', async () => {
    const load = createBatchLoader(async () => Promise.reject(new Error('down')), 5);
    const results = await Promise.allSettled([load('a'), load('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

/** Calls of `loadMany` that answer when told to: what the loader started, in order. */
function calls() {
  const started: { keys: string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const loadMany = (keys: string[]) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      started.push({
        keys,
        answer: () => resolve(new Map(keys.map((key) => [key, `answer ${key}`]))),
        fail: reject,
      });
    });
  return { started, load: createBusyBatchLoader(loadMany, { inFlight: 2, most: 3 }) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createBusyBatchLoader()', () => {
  it('reads a key at once while a call is free, and gathers the ones that wait into the next', async () => {
    const { started, load } = calls();
    const answers = ['1', '2', '3', '4', '5', '6'].map((key) => load(key));
    await settle();
    // Two calls at most: 1 and 2 alone; 3–6 wait.
    expect(started.map((s) => s.keys)).toEqual([['1'], ['2']]);
    started[1]!.answer();
    await settle();
    // One ended: the waiting keys go together, at most three.
    expect(started.map((s) => s.keys)).toEqual([['1'], ['2'], ['3', '4', '5']]);
    started[0]!.answer();
    await settle();
    expect(started.map((s) => s.keys)).toEqual([['1'], ['2'], ['3', '4', '5'], ['6']]);
    started[2]!.answer();
    started[3]!.answer();
    expect(await Promise.all(answers)).toEqual(['1', '2', '3', '4', '5', '6'].map((key) => `answer ${key}`));
  });

  it('fails the lookups of a failed call only, and goes on with the next', async () => {
    const { started, load } = calls();
    const first = load('1');
    const second = load('2');
    const waiting = [load('3'), load('4')];
    await settle();
    started[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    expect(started.map((s) => s.keys)).toEqual([['1'], ['2'], ['3', '4']]);
    started[2]!.fail(new Error('statement timeout'));
    for (const lookup of waiting) await expect(lookup).rejects.toThrow('statement timeout');
    started[1]!.answer();
    expect(await second).toBe('answer 2');
    const later = load('5');
    await settle();
    expect(started.at(-1)!.keys).toEqual(['5']);
    started.at(-1)!.answer();
    expect(await later).toBe('answer 5');
  });
});
