/**
 * The review states of the signed-in client's sent files (issue #31), read from GET /api/uploads/mine, for
 * `av-upload status` and the window's History. Reading them is a nicety beside the local history: any
 * failure comes back as words (ReviewsResult.error), never as a throw.
 */
import { REVIEW_STATE_LABELS } from '@avp/shared';
import type { MineResponse, ReviewState } from '@avp/shared';
import { networkWords } from './failures.js';

/** One sent file's review as the client sees it. */
export interface FileReview {
  state: ReviewState;
  message: string | null;
  version: number;
}

/** Reviews by submission id, then by file name (the latest version of a name wins). */
export type ReviewsBySubmission = Record<string, Record<string, FileReview>>;

export type ReviewsResult = { ok: true; reviews: ReviewsBySubmission } | { ok: false; error: string };

/** "Accepted", "New", "Needs a new version: <staff message>". */
export function reviewWords(review: Pick<FileReview, 'state' | 'message'>): string {
  const label = REVIEW_STATE_LABELS[review.state];
  return review.state === 'needs_new_version' && review.message ? `${label}: ${review.message}` : label;
}

/** The reviews of /mine, keyed so a history entry (submission id and file names) finds its files'. */
export function reviewsBySubmission(mine: MineResponse): ReviewsBySubmission {
  const out: ReviewsBySubmission = {};
  for (const submission of mine.submissions) {
    const files: Record<string, FileReview> = {};
    for (const f of submission.files) {
      const seen = files[f.name];
      if (seen && seen.version > f.version) continue;
      files[f.name] = { state: f.review.state, message: f.review.message, version: f.version };
    }
    out[submission.id] = files;
  }
  return out;
}

/** GET /api/uploads/mine with the client's token, waiting at most timeoutMs for the answer. */
export async function fetchReviews(
  baseUrl: string,
  token: string,
  timeoutMs: number,
): Promise<ReviewsResult> {
  const server = baseUrl.replace(/\/+$/, '');
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(`${server}/api/uploads/mine`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await res.json().catch(() => null);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const named = cause && (error as Error).name !== 'TimeoutError' ? cause : error;
    return { ok: false, error: networkWords(named, server).message };
  }
  if (!res.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message;
    const why =
      res.status === 401
        ? 'the session has expired, sign in again.'
        : (message ?? `the server answered ${res.status}.`);
    return { ok: false, error: why };
  }
  const submissions = (body as MineResponse | null)?.submissions;
  if (!Array.isArray(submissions))
    return { ok: false, error: 'the server sent an answer av-upload cannot read.' };
  return { ok: true, reviews: reviewsBySubmission({ submissions }) };
}
