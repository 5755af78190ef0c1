import type { Application } from 'express';

/**
 * Work a handler goes on with after its answer has been sent (the password reset answers first so its
 * timing tells nothing). The HTTP server counts a request done once its answer is out, so shutdown also
 * waits for this work before it closes the database under it.
 */
export class AfterAnswerWork {
  readonly #running = new Set<Promise<unknown>>();

  run<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    this.#running.add(running);
    const forget = () => this.#running.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Resolves once no work is running, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}

const KEY = 'afterAnswerWork';

export function attachAfterAnswerWork(app: Application): AfterAnswerWork {
  const work = new AfterAnswerWork();
  app.locals[KEY] = work;
  return work;
}

/** The tracker of an app built by createApp() (`req.app` in a handler). */
export function afterAnswerWork(app: Application): AfterAnswerWork {
  const work: unknown = app.locals[KEY];
  if (!(work instanceof AfterAnswerWork))
    throw new Error('createApp() attaches the after-answer work tracker');
  return work;
}
