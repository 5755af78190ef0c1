/**
 * The connection monitor on its own, with clocks and a network the test sets: backoff with jitter between
 * tries, calls failing together counted once, a wall-clock jump or a network change trying at once, Retry
 * now, and a bounded run giving up. No real sleeping: the backoff is long and the test moves the clocks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionMonitor } from '../src/engine/index.js';
import type { ConnectionOptions, ConnectionState, RetryEvent } from '../src/engine/index.js';

const HOUR = 3_600_000;
const monitors: ConnectionMonitor[] = [];
afterEach(() => {
  for (const m of monitors.splice(0)) m.stop();
});

function setup(options: Partial<ConnectionOptions> = {}) {
  const clock = { wall: 1_000_000, mono: 0 };
  let network = 'eth0/10.0.0.2';
  const states: ConnectionState[] = [];
  const retries: RetryEvent[] = [];
  let tries = 0;
  let answer = false;
  const monitor: ConnectionMonitor = new ConnectionMonitor({
    server: 'http://uploads.test',
    backoff: { baseMs: HOUR, maxMs: HOUR },
    random: () => 0.5,
    clock: { wall: () => clock.wall, monotonic: () => clock.mono },
    network: () => network,
    watchMs: HOUR,
    queuedFiles: () => 3,
    onTry: async () => {
      tries++;
      if (answer) monitor.ok();
      else monitor.fail({ reason: 'unreachable', message: 'Nothing answers.' }, 'register');
    },
    onChange: (state) => states.push(state),
    onRetry: (event) => retries.push(event),
    ...options,
  });
  monitors.push(monitor);
  monitor.start();
  return {
    monitor,
    clock,
    states,
    retries,
    tries: () => tries,
    answer: () => void (answer = true),
    setNetwork: (n: string) => void (network = n),
  };
}

describe('the connection monitor', () => {
  it('goes waiting on a failure with the next try scheduled, counting failures that come together once', () => {
    const { monitor, states, retries } = setup();
    expect(monitor.state).toEqual({ state: 'online' });
    monitor.fail({ reason: 'unreachable', message: 'Nothing answers.' }, 'part');
    monitor.fail({ reason: 'unreachable', message: 'The connection was cut.' }, 'part');
    expect(monitor.state).toEqual({
      state: 'waiting',
      server: 'http://uploads.test',
      reason: 'unreachable',
      message: 'The connection was cut.',
      attempt: 1,
      // an hour × the jitter factor 0.75 (random 0.5)
      nextTryAt: 1_000_000 + 0.75 * HOUR,
      queuedFiles: 3,
    });
    expect(retries).toEqual([
      {
        type: 'retry',
        server: 'http://uploads.test',
        reason: 'unreachable',
        message: 'Nothing answers.',
        attempt: 2,
        delayMs: 0.75 * HOUR,
        what: 'part',
      },
    ]);
    expect(states.map((s) => s.state)).toEqual(['waiting', 'waiting']);
  });

  it('doubles the wait per attempt up to the maximum, each scaled by a jitter in [0.5, 1)', async () => {
    const waits: number[] = [];
    const { monitor } = setup({
      backoff: { baseMs: 1_000, maxMs: 4_000 },
      random: () => 0.999,
      onRetry: (e) => waits.push(e.delayMs),
    });
    monitor.fail({ reason: 'unreachable', message: 'x' }, 'register');
    for (let i = 0; i < 3; i++) await monitor.retryNow();
    expect(waits).toEqual([1000, 1999, 3998, 3998]);
  });

  it('tries at once when the wall clock jumps against the monotonic one (a sleep), and only then', async () => {
    const { monitor, clock, tries } = setup();
    monitor.fail({ reason: 'unreachable', message: 'x' }, 'register');
    // Both clocks move together: an ordinary minute, no try.
    clock.wall += 60_000;
    clock.mono += 60_000;
    monitor.look();
    expect(tries()).toBe(0);
    // Ten minutes of sleep: the wall clock moved, the monotonic one did not.
    clock.wall += 600_000;
    clock.mono += 2_000;
    monitor.look();
    expect(tries()).toBe(1);
    expect(monitor.state).toMatchObject({ state: 'waiting', attempt: 2 });
  });

  it('tries at once when the network addresses change', () => {
    const { monitor, setNetwork, tries } = setup();
    monitor.fail({ reason: 'unreachable', message: 'x' }, 'register');
    monitor.look();
    expect(tries()).toBe(0);
    setNetwork('wlan0/192.168.4.7');
    monitor.look();
    expect(tries()).toBe(1);
  });

  it('Retry now tries at once; an answer makes it online again and the count starts over', async () => {
    const { monitor, answer, states } = setup();
    monitor.fail({ reason: 'server-error', message: 'The server answered 503.' }, 'submit');
    await monitor.retryNow();
    expect(monitor.state).toMatchObject({ attempt: 2, reason: 'unreachable' });
    answer();
    await monitor.retryNow();
    expect(monitor.state).toEqual({ state: 'online' });
    monitor.fail({ reason: 'unreachable', message: 'x' }, 'part');
    expect(monitor.state).toMatchObject({ attempt: 1 });
    expect(states.filter((s) => s.state === 'online')).toHaveLength(1);
  });

  it('a bounded run gives up once its time is spent, then a person’s Retry now tries again', async () => {
    const gaveUp: ConnectionState[] = [];
    const { monitor, clock, tries } = setup({ giveUpAfterMs: 5_000, onGiveUp: (s) => gaveUp.push(s) });
    monitor.fail({ reason: 'unreachable', message: 'x' }, 'register');
    expect(monitor.state).toMatchObject({ nextTryAt: 1_000_000 + 5_000 });
    clock.mono += 6_000;
    await monitor.retryNow();
    // The try failed after the bound: no other is scheduled.
    expect(gaveUp).toHaveLength(1);
    expect(monitor.givenUp).toBe(true);
    expect(monitor.state).toMatchObject({ state: 'waiting', nextTryAt: 0 });
    await monitor.retryNow();
    expect(tries()).toBe(2);
  });
});
