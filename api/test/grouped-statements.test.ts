import { describe, expect, it } from 'vitest';
import { GroupedStatements, groupedPer } from '../src/db/grouped-statements.js';

/**
 * Group commit (db/grouped-statements.ts): a lone write goes at once; those asked for while one is on its way
 * go together; a group's failure leaves each write to be made alone, with its own answer. The writer here
 * is a table in memory that writes a group all or nothing, as one statement does.
 */
class Table {
  rows = new Map<string, number>();
  statements: string[][] = [];
  pending: Array<() => void> = [];
  /** While true, each statement waits for release(): a write on its way. */
  hold = false;

  private async statement(keys: string[]): Promise<number[]> {
    this.statements.push(keys);
    if (this.hold) await new Promise<void>((resolve) => this.pending.push(resolve));
    if (keys.some((k) => this.rows.has(k)) || new Set(keys).size !== keys.length) {
      throw new Error(`duplicate key among ${keys.join(', ')}`);
    }
    return keys.map((k) => {
      const id = this.rows.size + 1;
      this.rows.set(k, id);
      return id;
    });
  }

  release(): void {
    for (const go of this.pending.splice(0)) go();
  }

  writes(max?: number): GroupedStatements<string, number> {
    return new GroupedStatements<string, number>(
      {
        many: (keys) => this.statement(keys),
        one: async (key) => (await this.statement([key]))[0]!,
      },
      max,
    );
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('grouped statements', () => {
  it('writes a lone item at once, alone', async () => {
    const table = new Table();
    expect(await table.writes().run('a')).toBe(1);
    expect(table.statements).toEqual([['a']]);
  });

  it('writes the items asked for while one is on its way together, in one statement, each caller its own result', async () => {
    const table = new Table();
    const writes = table.writes();
    table.hold = true;
    const first = writes.run('a');
    await turn();
    const rest = ['b', 'c', 'd'].map((k) => writes.run(k));
    await turn();
    // Nothing more goes while the first is on its way.
    expect(table.statements).toEqual([['a']]);
    table.hold = false;
    table.release();
    expect(await first).toBe(1);
    expect(await Promise.all(rest)).toEqual([2, 3, 4]);
    expect(table.statements).toEqual([['a'], ['b', 'c', 'd']]);
    expect([...table.rows.keys()]).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps each group to its size', async () => {
    const table = new Table();
    const writes = table.writes(2);
    table.hold = true;
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => writes.run(k));
    await turn();
    table.hold = false;
    table.release();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(table.statements).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('makes each write of a failed group alone: the refused one fails, the others are written', async () => {
    const table = new Table();
    table.rows.set('taken', 99);
    const writes = table.writes();
    table.hold = true;
    const first = writes.run('a');
    await turn();
    const group = ['b', 'taken', 'c'].map((k) => writes.run(k));
    table.hold = false;
    table.release();
    await first;
    const outcomes = await Promise.allSettled(group);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(table.statements).toEqual([['a'], ['b', 'taken', 'c'], ['b'], ['taken'], ['c']]);
    expect(table.rows.get('taken')).toBe(99);
    expect([...table.rows.keys()].sort()).toEqual(['a', 'b', 'c', 'taken']);
  });

  it('goes on with the next group after a lone write fails', async () => {
    const table = new Table();
    table.rows.set('taken', 99);
    const writes = table.writes();
    await expect(writes.run('taken')).rejects.toThrow(/duplicate/);
    expect(await writes.run('a')).toBe(2);
  });

  it('keeps one set of groups per key', () => {
    const per = groupedPer((table: Table) => table.writes());
    const one = new Table();
    const other = new Table();
    expect(per(one)).toBe(per(one));
    expect(per(one)).not.toBe(per(other));
  });
});
