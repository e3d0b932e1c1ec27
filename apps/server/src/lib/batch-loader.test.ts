import { describe, expect, it, vi } from 'vitest';
import { createBatchLoader } from './batch-loader.ts';

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
