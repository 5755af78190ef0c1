/**
 * A file's review controls in the staff inbox (#31): Accept, "Needs a new version" with the reason the client
 * will read (required), and back to New. Each control names its file for a screen reader.
 */
import {
  REVIEW_MESSAGE_MAX,
  REVIEW_MESSAGE_REQUIRED,
  REVIEW_STATE_LABELS,
  type InboxFile,
  type ReviewInput,
  type ReviewResponse,
} from '@avp/shared';
import { useId, useState } from 'react';
import { apiRequest, errorMessage } from '../../lib/api';
import { Button } from '../../ui';

export interface InboxReviewProps {
  file: InboxFile;
  /** After the server took a change: the file as it now is. */
  onChanged: (file: InboxFile) => void;
}

export function InboxReview({ file, onChanged }: InboxReviewProps) {
  const [writing, setWriting] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const messageId = useId();
  const errorId = useId();
  const state = file.review.state;

  async function send(input: ReviewInput) {
    setBusy(true);
    setError(null);
    try {
      const body = await apiRequest<ReviewResponse>(
        'PUT',
        `/api/uploads/inbox/files/${encodeURIComponent(file.id)}/review`,
        input,
      );
      setWriting(false);
      setMessage('');
      onChanged(body.file);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  function submitMessage(event: React.FormEvent) {
    event.preventDefault();
    const text = message.trim();
    if (!text) {
      setError(REVIEW_MESSAGE_REQUIRED);
      return;
    }
    void send({ state: 'needs_new_version', message: text });
  }

  return (
    <div className="inbox-review">
      <p className="inbox-review__state">
        <span className={`inbox-state inbox-state--${state}`} data-testid="review-state">
          {REVIEW_STATE_LABELS[state]}
        </span>
        {file.review.message ? (
          <span className="inbox-review__message" data-testid="review-message">
            {file.review.message}
          </span>
        ) : null}
      </p>
      {file.status === 'complete' ? (
        <div className="inbox-review__actions" role="group" aria-label={`Review ${file.name}`}>
          {state !== 'accepted' ? (
            <Button
              variant="secondary"
              dense
              isDisabled={busy}
              onPress={() => void send({ state: 'accepted' })}
              aria-label={`Accept ${file.name}`}
            >
              Accept
            </Button>
          ) : null}
          {!writing ? (
            <Button
              variant="secondary"
              dense
              isDisabled={busy}
              onPress={() => {
                setWriting(true);
                setMessage(state === 'needs_new_version' ? (file.review.message ?? '') : '');
                setError(null);
              }}
              aria-label={`Needs a new version: ${file.name}`}
            >
              Needs a new version
            </Button>
          ) : null}
          {state !== 'new' ? (
            <Button
              variant="secondary"
              dense
              isDisabled={busy}
              onPress={() => void send({ state: 'new' })}
              aria-label={`Back to New: ${file.name}`}
            >
              Back to New
            </Button>
          ) : null}
        </div>
      ) : null}
      {writing ? (
        <form className="inbox-review__form" onSubmit={submitMessage} noValidate>
          <label htmlFor={messageId}>
            Why does {file.name} need a new version? <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={messageId}
            value={message}
            rows={3}
            maxLength={REVIEW_MESSAGE_MAX}
            required
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            placeholder="The spot runs 45 s; the slot is 30 s."
            onChange={(event) => setMessage(event.target.value)}
            autoFocus
          />
          <div className="inbox-review__actions">
            <Button
              type="submit"
              dense
              isDisabled={busy}
              aria-label={`Send: ${file.name} needs a new version`}
            >
              Send
            </Button>
            <Button
              variant="secondary"
              dense
              isDisabled={busy}
              onPress={() => {
                setWriting(false);
                setError(null);
              }}
              aria-label={`Cancel the message for ${file.name}`}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p id={errorId} className="kit-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
