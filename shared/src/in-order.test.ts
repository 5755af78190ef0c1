import { describe, expect, it } from 'vitest';
import { inOrder } from './in-order.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('inOrder', () => {
  it('answers in the order of the items, whatever order the work ends in', async () => {
    const answers = await inOrder([30, 5, 20, 1, 10], 3, async (ms, i) => {
      await tick(ms);
      return `${i}:${ms}`;
    });
    expect(answers).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10']);
  });

  it('keeps to its limit', async () => {
    let running = 0;
    let most = 0;
    await inOrder(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async () => {
        most = Math.max(most, ++running);
        await tick(2);
        running--;
      },
    );
    expect(most).toBe(4);
  });

  it('starts nothing more once one failed, and rejects with its error after the others end', async () => {
    const started: number[] = [];
    let ended = 0;
    const failing = inOrder([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick(n === 1 ? 1 : 10);
      if (n === 1) throw new Error('no disk');
      ended++;
    });
    await expect(failing).rejects.toThrow('no disk');
    expect(started).toEqual([0, 1]);
    expect(ended).toBe(1);
  });

  it('answers an empty list at once', async () => {
    expect(await inOrder([], 4, async () => 1)).toEqual([]);
  });
});
