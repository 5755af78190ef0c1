/** Submissions sent, newest first, each file with the sha-256 the server verified. */
import { formatBytes, truncateFileName } from '@avp/shared';
import { FORM_TITLES } from '@avp/web/upload-form';
import type { EngineSnapshot, HistoryEntry } from './api';
import { submissionSummary } from './format';

const sentAt = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function History({ snapshot }: { snapshot: EngineSnapshot | null }) {
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
  return (
    <ol className="app-history">
      {snapshot.history.map((entry) => (
        <li key={entry.submissionId}>
          <Entry entry={entry} />
        </li>
      ))}
    </ol>
  );
}

function Entry({ entry }: { entry: HistoryEntry }) {
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
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
