/**
 * Retry policy of the upload client: exponential backoff with jitter on network errors, 5xx and the
 * answers that say 'busy, come back shortly'.
 */

export interface RetryPolicy {
  /** Attempts after the first; 0 disables retrying. */
  retries: number;
  /** Delay before the first retry; each further retry doubles it, up to maxMs. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = { retries: 8, baseMs: 500, maxMs: 15_000 };

/**
 * The wait before retry number `attempt` (1-based): base × 2^(attempt−1), capped at maxMs, then scaled
 * by a random factor in [0.5, 1) ('equal jitter') so that many clients cut off together do not return in
 * step.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxMs, exponential);
  return Math.round(capped * (0.5 + 0.5 * random()));
}

/**
 * Whether an HTTP status is worth another try: server errors and the two 'come back later' answers.
 * Other 4xx answers (bad size, missing parts, not signed in) will not change by retrying.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/**
 * 409 codes meaning another request is writing the same part or completing the same file right now
 * (docs/api.md 'Uploads'): the same request succeeds once that one is done, or once the server gives up
 * on it (a request cut off without a word holds its part for about 10 s).
 */
export const BUSY_CODES: readonly string[] = ['part_in_progress', 'completion_in_progress'];

/**
 * 400 part_aborted says the server saw the part's body end early. A client that did cut it off never
 * reads that answer; one that reads it sent the whole part, and something between (a proxy, a server
 * fault read as the client's) broke it: the same part sent again succeeds.
 */
export const CUT_OFF_CODE = 'part_aborted';

/** Whether an answer is worth another try: a retryable status, a 409 that only means 'busy', or a cut-off part. */
export function isRetryableAnswer(status: number, code: string): boolean {
  return (
    isRetryableStatus(status) ||
    (status === 409 && BUSY_CODES.includes(code)) ||
    (status === 400 && code === CUT_OFF_CODE)
  );
}
