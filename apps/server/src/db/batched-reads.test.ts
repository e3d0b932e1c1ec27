import { describe, expect, it } from 'vitest';
import { batchedReads } from './batched-reads.ts';

/** A statement that answers when told to: what `batchedReads` started, in order. */
function statements() {
  const started: { keys: number[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const run = (keys: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      started.push({ keys, answer: () => resolve(keys.map((key) => `answer ${key}`)), fail: reject });
    });
  return {
    started,
    read: batchedReads<number, string>({
      one: async (key) => (await run([key]))[0]!,
      many: run,
      inFlight: 2,
      most: 3,
    }),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedReads()', () => {
  it('runs a read at once while a statement is free, and gathers the ones that wait into the next', async () => {
    const { started, read } = statements();
    const answers = [1, 2, 3, 4, 5, 6].map((key) => read(key));
    await settle();
    // Two statements at most: 1 and 2 alone; 3–6 wait.
    expect(started.map((s) => s.keys)).toEqual([[1], [2]]);
    started[1]!.answer();
    await settle();
    // One ended: the waiting reads go together, at most three.
    expect(started.map((s) => s.keys)).toEqual([[1], [2], [3, 4, 5]]);
    started[0]!.answer();
    await settle();
    expect(started.map((s) => s.keys)).toEqual([[1], [2], [3, 4, 5], [6]]);
    started[2]!.answer();
    started[3]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6].map((key) => `answer ${key}`));
  });

  it('fails the reads of a failed statement only, and goes on with the next', async () => {
    const { started, read } = statements();
    const first = read(1);
    const second = read(2);
    const waiting = [read(3), read(4)];
    await settle();
    started[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    expect(started.map((s) => s.keys)).toEqual([[1], [2], [3, 4]]);
    started[2]!.fail(new Error('statement timeout'));
    for (const read of waiting) await expect(read).rejects.toThrow('statement timeout');
    started[1]!.answer();
    expect(await second).toBe('answer 2');
    const later = read(5);
    await settle();
    expect(started.at(-1)!.keys).toEqual([5]);
    started.at(-1)!.answer();
    expect(await later).toBe('answer 5');
  });
});
