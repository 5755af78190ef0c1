import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IdleWatch } from '../src/modules/imports/idle-watch.js';

/**
 * The import's watch on one byte range (issue 28) while the range's answer waits, unread, for the part
 * before it to be stored: that wait is ours, so it must not count as the provider's silence, and the
 * watch must still catch a provider that goes silent once the body is read.
 */
describe('the import idle watch while a part waits its turn', () => {
  it('does not fire during the wait, however long, and fires once the provider is silent after it', async () => {
    const watch = new IdleWatch(new AbortController().signal, 80);
    const body = new PassThrough();
    // A wait three times the idle time: the part before is still arriving.
    const inOrder = await watch.waitFor(sleep(240).then(() => true));
    expect(inOrder).toBe(true);
    expect(watch.timedOut).toBeUndefined();
    expect(watch.signal.aborted).toBe(false);

    watch.watch(body);
    body.resume();
    body.write(Buffer.alloc(10));
    await sleep(40);
    expect(watch.timedOut).toBeUndefined();
    // Then nothing: the provider went silent mid-body.
    await sleep(200);
    expect(watch.timedOut?.message).toMatch(/sent nothing/);
    expect(watch.signal.aborted).toBe(true);
    expect(body.destroyed).toBe(true);
    watch.done();
  });

  it('an import stopped during the wait still ends the request', async () => {
    const parent = new AbortController();
    const watch = new IdleWatch(parent.signal, 10_000);
    const waiting = watch.waitFor(sleep(50).then(() => true));
    parent.abort(new Error('stopping'));
    expect(watch.signal.aborted).toBe(true);
    await waiting;
    watch.done();
  });
});
