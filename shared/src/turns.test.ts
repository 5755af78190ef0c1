import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

/** A piece of work that runs until `end` is called. */
function held(order: string[], name: string): { work: () => Promise<void>; end: () => void } {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return {
    work: async () => {
      order.push(name);
      await ended;
    },
    end: () => end(),
  };
}

describe('Turns', () => {
  it('runs at most its limit at once, the rest in the order they asked', async () => {
    const turns = new Turns(2);
    const order: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => held(order, name));
    const runs = jobs.map((job) => turns.run(job.work));
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']);
    expect(turns.counts).toEqual({ active: 2, waiting: 2, most: 2 });
    jobs[1]!.end();
    await runs[1];
    expect(order).toEqual(['a', 'b', 'c']);
    jobs[0]!.end();
    await runs[0];
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    jobs[2]!.end();
    jobs[3]!.end();
    await Promise.all(runs);
    expect(turns.counts).toEqual({ active: 0, waiting: 0, most: 2 });
  });

  it('passes the turn of work that fails on, and gives its error to its caller', async () => {
    const turns = new Turns(1);
    const order: string[] = [];
    const failing = turns.run(async () => {
      order.push('failing');
      throw new Error('disk full');
    });
    const next = turns.run(async () => void order.push('next'));
    await expect(failing).rejects.toThrow('disk full');
    await next;
    expect(order).toEqual(['failing', 'next']);
    expect(turns.counts).toEqual({ active: 0, waiting: 0, most: 1 });
  });

  it('needs at least one turn, and names what asked', () => {
    expect(() => new Turns(0)).toThrow('Turns needs at least one turn (got 0)');
    expect(() => new Turns(Number.NaN, 'Media probes')).toThrow(/^Media probes needs at least one turn/);
  });
});
