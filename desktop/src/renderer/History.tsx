/**
 * Submissions sent, newest first, each file with the sha-256 the server verified and its review state
 * (issue #31: New, Accepted, Needs a new version with the staff's message), asked of the server when the
 * section opens, when a submission is added and on "Check review states again".
 */
import { useEffect, useState } from 'react';
import { formatBytes, REVIEW_STATE_LABELS, truncateFileName } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { FORM_TITLES } from '@avp/web/upload-form';
import type { DesktopApi, EngineSnapshot, FileReview, HistoryEntry, ReviewsResult } from './api';
import { submissionSummary } from './format';

/** null: not asked yet; else the last answer (result null when signed out) and which asking it answered. */
type Reviews = { key: string; result: ReviewsResult | null } | null;

const sentAt = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function reviewWords(review: FileReview): string {
  const label = REVIEW_STATE_LABELS[review.state];
  return review.state === 'needs_new_version' && review.message ? `${label}: ${review.message}` : label;
}

export function History({ api, snapshot }: { api: DesktopApi; snapshot: EngineSnapshot | null }) {
  const [reviews, setReviews] = useState<Reviews>(null);
  const [attempt, setAttempt] = useState(0);
  const sent = snapshot?.history.length ?? 0;
  // Asked again when a submission is added and on "Check review states again".
  const key = `${sent}:${attempt}`;
  useEffect(() => {
    if (sent === 0) return undefined;
    let current = true;
    api.reviews().then(
      (result) => current && setReviews({ key, result }),
      // The engine answers failures in words; a rejected call means the app's own channel failed.
      () =>
        current &&
        setReviews({
          key,
          result: { ok: false, error: 'The uploader could not ask the server. Please try again.' },
        }),
    );
    return () => {
      current = false;
    };
  }, [api, key, sent]);
  const checking = sent > 0 && reviews?.key !== key;

  if (!snapshot) {
    return (
      <p className="app-loading" role="status">
        Loading the history…
      </p>
    );
  }
  if (snapshot.history.length === 0) {
    return <p className="app-empty">No finished submissions yet.</p>;
  }
  const result = reviews?.result ?? null;
  return (
    <>
      <div className="app-history__reviews">
        <p className="app-status" role="status">
          {checking
            ? 'Checking review states…'
            : result && !result.ok
              ? `Review states could not be fetched: ${result.error}`
              : ''}
        </p>
        {result ? (
          <Button variant="secondary" dense isDisabled={checking} onPress={() => setAttempt((n) => n + 1)}>
            Check review states again
          </Button>
        ) : null}
      </div>
      <ol className="app-history">
        {snapshot.history.map((entry) => (
          <li key={entry.submissionId}>
            <Entry entry={entry} reviews={result?.ok ? (result.reviews[entry.submissionId] ?? {}) : null} />
          </li>
        ))}
      </ol>
    </>
  );
}

function Entry({ entry, reviews }: { entry: HistoryEntry; reviews: Record<string, FileReview> | null }) {
  const title = `${FORM_TITLES[entry.formType]}: ${submissionSummary(entry.fields)}`;
  return (
    <article className="app-card" aria-label={title}>
      <h3>{title}</h3>
      <p>
        Sent <time dateTime={entry.submittedAt}>{sentAt(entry.submittedAt)}</time>
      </p>
      <table className="app-table">
        <caption className="visually-hidden">Files of {title}</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Size</th>
            <th scope="col">SHA-256</th>
            {reviews ? <th scope="col">Review</th> : null}
          </tr>
        </thead>
        <tbody>
          {entry.files.map((file) => (
            <tr key={file.path}>
              <th scope="row" title={file.path}>
                {truncateFileName(file.name)}
              </th>
              <td>{formatBytes(file.size)}</td>
              <td>
                <code className="app-sha">{file.sha256 ?? 'not reported'}</code>
              </td>
              {reviews ? <ReviewCell review={reviews[file.name]} /> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

function ReviewCell({ review }: { review: FileReview | undefined }) {
  if (!review) return <td>Not known to the server</td>;
  return (
    <td className={`app-review app-review--${review.state.replace(/_/g, '-')}`}>{reviewWords(review)}</td>
  );
}
