/**
 * On /client under the upload form (#31): the client's sent submissions with their files, each file's review
 * state and the message staff wrote, older versions kept, and "Send a new version" where it applies.
 */
import { formatBytes, formatDateTime, REVIEW_STATE_LABELS, type MineResponse } from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api';
import { Button } from '../../ui';
import { ClientNewVersion } from './ClientNewVersion';
import { TITLES } from './UploadForms';
import './client-submissions.css';

const MINE_KEY = ['uploads', 'mine'];

function submissionTitle(fields: Record<string, string>): string {
  return fields.event_name || fields.project_name || fields.sponsor_company || '';
}

export default function ClientSubmissions() {
  const query = useQuery({
    queryKey: MINE_KEY,
    queryFn: () => apiRequest<MineResponse>('GET', '/api/uploads/mine'),
  });
  const refresh = () => void query.refetch();

  return (
    <section className="client-submissions" aria-labelledby="client-submissions-title">
      <h2 id="client-submissions-title">Your submissions</h2>
      {query.isPending ? <p role="status">Loading your submissions…</p> : null}
      {query.error ? (
        <div role="alert" className="kit-error">
          <p>{errorMessage(query.error)}</p>
          <Button variant="secondary" dense onPress={refresh}>
            Try again
          </Button>
        </div>
      ) : null}
      {query.data && query.data.submissions.length === 0 ? <p>You have not sent any files yet.</p> : null}
      {query.data?.submissions.map((submission) => {
        const title = submissionTitle(submission.fields);
        const label = `${TITLES[submission.formType]}${title ? `: ${title}` : ''}`;
        return (
          <article key={submission.id} className="client-submission" aria-label={label}>
            <h3>{label}</h3>
            {submission.submittedAt ? (
              <p className="client-submission__sent">Sent {formatDateTime(submission.submittedAt)}</p>
            ) : null}
            <ul className="client-files" aria-label={`Files of ${label}`}>
              {submission.files.map((file) => (
                <li key={file.id} className="client-file" data-testid="client-file" aria-label={file.name}>
                  <p className="client-file__name">
                    {file.name}
                    {file.version > 1 ? (
                      <span className="client-file__version"> · version {file.version}</span>
                    ) : null}
                  </p>
                  <p className="client-file__meta">
                    {formatBytes(file.size)}
                    {file.receivedAt ? <> · received {formatDateTime(file.receivedAt)}</> : null}
                  </p>
                  <p>
                    <span
                      className={`client-state client-state--${file.review.state}`}
                      data-testid="client-state"
                    >
                      {file.status === 'complete' ? REVIEW_STATE_LABELS[file.review.state] : 'Uploading'}
                    </span>
                  </p>
                  {file.review.message ? (
                    <p className="client-file__message" data-testid="client-message">
                      <span className="client-file__from">Message from our team: </span>
                      {file.review.message}
                    </p>
                  ) : null}
                  {file.previousVersions.length > 0 ? (
                    <p className="client-file__older">
                      Earlier versions kept:{' '}
                      {file.previousVersions.map((old) => `version ${old.version} (${old.name})`).join(', ')}
                    </p>
                  ) : null}
                  {file.canReplace ? (
                    <ClientNewVersion submissionId={submission.id} file={file} onSent={refresh} />
                  ) : null}
                </li>
              ))}
            </ul>
          </article>
        );
      })}
    </section>
  );
}
