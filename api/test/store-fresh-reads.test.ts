import { describe, expect, it } from 'vitest';
import { freshReads } from '../src/modules/store/fresh-reads.js';

/**
 * The store page's version check is shared by concurrent requests (api/src/modules/store/fresh-reads.ts);
 * a request must never get a read that began before it arrived, or it could miss an edit committed just
 * before. Here the read is a plain function whose answers the test releases one at a time.
 */
function gatedSource() {
  let value = 0;
  const started: { valueAtStart: number; release(): void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve) => {
      const valueAtStart = value;
      started.push({ valueAtStart, release: () => resolve(`${key}@${valueAtStart}`) });
    });
  return {
    read,
    started,
    change: () => void value++,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('fresh reads', () => {
  it('a caller arriving while a read is under way gets the next read, shared with everyone arriving meanwhile', async () => {
    const source = gatedSource();
    const reads = freshReads(source.read);

    const first = reads('expo');
    expect(source.started).toHaveLength(1);
    source.change(); // committed after the first read began, before the next callers arrived
    const second = reads('expo');
    const third = reads('expo');
    expect(source.started).toHaveLength(1);

    source.started[0]!.release();
    expect(await first).toBe('expo@0');
    await tick();
    expect(source.started).toHaveLength(2);
    expect(source.started[1]!.valueAtStart).toBe(1);
    source.started[1]!.release();
    expect(await second).toBe('expo@1');
    expect(await third).toBe('expo@1');
    expect(source.started).toHaveLength(2);

    // Nothing under way: the next caller starts its own read at once.
    const fourth = reads('expo');
    expect(source.started).toHaveLength(3);
    source.started[2]!.release();
    expect(await fourth).toBe('expo@1');
  });

  it('keys are independent, and a failed read fails only its own callers', async () => {
    let calls = 0;
    const reads = freshReads(async (key) => {
      calls++;
      if (key === 'broken') throw new Error('database gone');
      return key;
    });
    const [a, b] = [reads('a'), reads('b')];
    expect(calls).toBe(2);
    await expect(reads('broken')).rejects.toThrow('database gone');
    expect(await a).toBe('a');
    expect(await b).toBe('b');
    expect(await reads('broken').catch(() => 'failed again')).toBe('failed again');
  });
});
