/**
 * One call of `run` for a burst of requests (issue #34): 2,000 files picked or sent at once report
 * thousands of changes, and the page takes them in a few times a second instead of once each.
 *
 * It waits on the browser's task scheduler (scheduler.postTask with a delay) where there is one, else on
 * setTimeout. Not on requestAnimationFrame: a page whose clock a test holds still (Playwright's
 * page.clock) still shows its uploads' progress, as it did when each change was drawn at once.
 */
interface PostTaskScheduler {
  postTask(
    task: () => void,
    options: { delay?: number; priority?: string; signal?: AbortSignal },
  ): Promise<unknown>;
}

export interface Coalescer {
  /** Asks for one call of `run`; asked again before it runs, it still runs once. */
  request(): void;
  /** Forgets a call asked for and not made (the component unmounts). */
  cancel(): void;
}

export function coalescer(run: () => void, gapMs: number): Coalescer {
  const scheduler = (globalThis as { scheduler?: Partial<PostTaskScheduler> }).scheduler;
  let cancelPending: (() => void) | null = null;
  const fire = () => {
    cancelPending = null;
    run();
  };
  return {
    request() {
      if (cancelPending) return;
      if (typeof scheduler?.postTask === 'function') {
        const controller = new AbortController();
        scheduler
          .postTask(fire, { delay: gapMs, priority: 'user-visible', signal: controller.signal })
          .catch(() => undefined);
        cancelPending = () => controller.abort();
      } else {
        const timer = setTimeout(fire, gapMs);
        cancelPending = () => clearTimeout(timer);
      }
    },
    cancel() {
      cancelPending?.();
      cancelPending = null;
    },
  };
}

/**
 * Runs `run` in a task of its own (a MessageChannel message, as React's own scheduler posts), after the
 * browser has had the chance to draw and to take input; in order, one after another.
 */
const queued: (() => void)[] = [];
let channel: MessageChannel | null = null;
export function nextTask(run: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(run, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queued.shift()?.();
    // Under Node (the unit tests) an open port would keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  queued.push(run);
  channel.port2.postMessage(null);
}

/** How long a slice of a long list may run before the page is let draw and take input. */
export const SLICE_MS = 8;

/**
 * Calls `each` for every item of `list` in order, in slices of at most `budgetMs` (the first at once,
 * each later one a task of its own, through nextTask): a send of 2,000 files puts them in its queue
 * without a main-thread task over 50 ms (issue #34).
 */
export async function eachInSlices<T>(
  list: readonly T[],
  each: (item: T) => void,
  budgetMs = SLICE_MS,
): Promise<void> {
  let i = 0;
  while (i < list.length) {
    const started = performance.now();
    do each(list[i]!);
    while (++i < list.length && performance.now() - started < budgetMs);
    if (i < list.length) await new Promise<void>((resolve) => nextTask(resolve));
  }
}
