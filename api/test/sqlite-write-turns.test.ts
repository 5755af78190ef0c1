import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { uploadWritesBehind } from '../src/http/priority-gate.js';
import { asBulkWriter, currentWriteLane, WriteTurns } from '../src/db/sqlite-write-turns.js';
import type { ReleaseTurn, WriteLane } from '../src/db/sqlite-write-turns.js';

/**
 * The two lanes of SQLite's write turns (db/sqlite-write-turns.ts): who gets the turn next, never how fast.
 * Each writer records its name when its turn comes and gives the turn back on the next tick.
 */

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Queues `writers` behind a turn held now; resolves, once all have written, with the order they wrote in. */
async function order(turns: WriteTurns, writers: { name: string; lane: WriteLane }[]): Promise<string[]> {
  const written: string[] = [];
  const holding = await turns.take('bulk');
  const done = writers.map(async ({ name, lane }) => {
    const release = await turns.take(lane);
    written.push(name);
    await tick();
    release();
  });
  holding();
  await Promise.all(done);
  return written;
}

const bulk = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ name: `bulk ${from + i}`, lane: 'bulk' as const }));
const interactive = (name: string) => ({ name, lane: 'interactive' as const });

describe('WriteTurns lanes', () => {
  it('gives an interactive writer queued behind bulk writers its turn before theirs', async () => {
    const turns = new WriteTurns(5_000, { maxPassedTurns: 8, maxPassedMs: 60_000 });
    expect(await order(turns, [...bulk(5), interactive('intent')])).toEqual([
      'intent',
      'bulk 1',
      'bulk 2',
      'bulk 3',
      'bulk 4',
      'bulk 5',
    ]);
    expect(turns.counts.given).toEqual({ interactive: 1, bulk: 6 });
  });

  it('keeps each lane first come first served', async () => {
    const turns = new WriteTurns(5_000, { maxPassedTurns: 8, maxPassedMs: 60_000 });
    expect(
      await order(turns, [bulk(1)[0]!, interactive('a'), bulk(1, 2)[0]!, interactive('b'), interactive('c')]),
    ).toEqual(['a', 'b', 'c', 'bulk 1', 'bulk 2']);
  });

  it('lets a bulk writer go once it was passed over maxPassedTurns times, so bulk is never starved', async () => {
    const turns = new WriteTurns(5_000, { maxPassedTurns: 2, maxPassedMs: 60_000 });
    const five = ['i1', 'i2', 'i3', 'i4', 'i5'].map(interactive);
    expect(await order(turns, [...bulk(2), ...five])).toEqual([
      'i1',
      'i2',
      'bulk 1',
      'i3',
      'i4',
      'bulk 2',
      'i5',
    ]);
  });

  it('lets a bulk writer go once it was passed over for maxPassedMs, however few the turns', async () => {
    const turns = new WriteTurns(5_000, { maxPassedTurns: 1_000, maxPassedMs: 50 });
    const written: string[] = [];
    const holding = await turns.take('bulk');
    const queued = turns.take('bulk').then((release) => {
      written.push('bulk');
      release();
    });
    // A chain of interactive writers, each arriving while the one before holds the turn for 20 ms.
    const chain = async (n: number): Promise<void> => {
      const release = await turns.take('interactive');
      written.push(`i${n}`);
      const next = n < 10 ? chain(n + 1) : Promise.resolve();
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await next;
    };
    const interactiveDone = chain(1);
    holding();
    await Promise.all([queued, interactiveDone]);
    const at = written.indexOf('bulk');
    // Passed over for 50 ms at 20 ms a turn: its turn comes after a few, long before the tenth.
    expect(at).toBeGreaterThan(1);
    expect(at).toBeLessThan(6);
  });

  it('drops a writer that gave up from its lane, so the writers behind it still get their turns', async () => {
    const turns = new WriteTurns(100, { maxPassedTurns: 8, maxPassedMs: 60_000 });
    const holding = await turns.take('interactive');
    const gaveUp = turns.take('bulk').then(
      () => 'turn',
      (error: Error) => error.message,
    );
    expect(await gaveUp).toBe('SQLite: no turn to write within 100 ms');
    const later: Promise<ReleaseTurn>[] = [turns.take('bulk'), turns.take('interactive')];
    expect(turns.counts.waiting).toEqual({ interactive: 1, bulk: 1 });
    holding();
    (await later[1]!)();
    (await later[0]!)();
    // Free again: the next writer has it at once.
    (await turns.take('interactive'))();
    expect(turns.counts.waiting).toEqual({ interactive: 0, bulk: 0 });
  });

  it('gives the turn back once however often its release is called', async () => {
    const turns = new WriteTurns(5_000);
    const first = await turns.take('bulk');
    const second = turns.take('bulk');
    const third = turns.take('bulk');
    first();
    first();
    const releaseSecond = await second;
    const thirdHasIt = await Promise.race([third.then(() => true), tick().then(() => false)]);
    expect(thirdHasIt).toBe(false);
    releaseSecond();
    (await third)();
  });

  it('takes the lane from where the writer runs: bulk inside asBulkWriter, interactive elsewhere', async () => {
    expect(currentWriteLane()).toBe('interactive');
    const lane = await asBulkWriter(async () => {
      await tick();
      return currentWriteLane();
    });
    expect(lane).toBe('bulk');
  });
});

describe('uploadWritesBehind', () => {
  /** The lane a request's handler writes in, behind the same middleware and JSON parser as the app's. */
  async function laneOf(method: string, path: string, body?: string): Promise<string> {
    const app = express();
    app.use(uploadWritesBehind);
    app.use(express.json());
    app.use(async (_req, res) => {
      await tick();
      res.json({ lane: currentWriteLane() });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { 'content-type': body === undefined ? 'application/octet-stream' : 'application/json' },
        body: body ?? (method === 'GET' ? undefined : 'bytes'),
      });
      return ((await response.json()) as { lane: string }).lane;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('puts the writes of parts, registrations and completions in the bulk lane, and others not', async () => {
    expect(await laneOf('PUT', '/api/uploads/files/f1/parts/3?sha256=ab')).toBe('bulk');
    expect(await laneOf('POST', '/api/uploads/files/f1/complete', '{}')).toBe('bulk');
    expect(await laneOf('POST', '/api/uploads/submissions/s1/files', '{}')).toBe('bulk');
    expect(await laneOf('POST', '/api/uploads/submissions/s1/files/batch', '{}')).toBe('bulk');
    expect(await laneOf('POST', '/api/auth/login', '{}')).toBe('interactive');
    expect(await laneOf('POST', '/api/stores/demo-expo/payment-intents', '{}')).toBe('interactive');
    expect(await laneOf('GET', '/api/uploads/files/f1')).toBe('interactive');
  });
});
