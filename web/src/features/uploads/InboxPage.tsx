/**
 * The staff inbox (/staff/uploads): sent submissions newest first with client, form type and
 * fields; each file with name, size, sha-256, status and a download link (served with Range support);
 * mark as handled; filters by form type and handled state. Each file shows its media facts in words and,
 * when its event has a media spec, a badge ('Meets spec', '2 issues') whose issues open on demand (#30:
 * the server's own reading once made, else the client's report). The staff layout around it
 * (web/src/app/staff/StaffLayout.tsx) signs staff in.
 */
import {
  DEFAULT_TZ_STORE,
  formatBytes,
  formatDateTime,
  formatWallDateTime,
  type InboxFileMedia,
  type InboxSubmission,
  type UploadFileInfo,
} from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { apiRequest, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, SelectField } from '../../ui';
import { PROVIDER_LABELS } from './cloud/pickers';
import { TITLES } from './UploadForms';
import './uploads.css';
import './inbox.css';

const FORM_OPTIONS = [
  { id: 'all', label: 'All types' },
  { id: 'creative', label: TITLES.creative },
  { id: 'event', label: TITLES.event },
  { id: 'sponsor', label: TITLES.sponsor },
];
const HANDLED_OPTIONS = [
  { id: 'all', label: 'All' },
  { id: 'no', label: 'Not handled' },
  { id: 'yes', label: 'Handled' },
];

const FIELD_LABELS: Record<string, string> = {
  project_name: 'Project name',
  event_name: 'Event name',
  session_datetime: 'Session',
  speaker_name: 'Speaker',
  room_no: 'Room',
  sponsor_company: 'Sponsor company',
  description: 'Description',
};

/** The company's zone (TZ_STORE), which staff screens print times in; the same cache entry as theirs. */
function useStaffTimeZone(): string {
  const { data } = useQuery({
    queryKey: ['staff', 'settings'],
    queryFn: () => apiRequest<{ time_zone: string }>('GET', '/api/staff/settings'),
    staleTime: Infinity,
  });
  return data?.time_zone ?? DEFAULT_TZ_STORE;
}

/** '3f2a9c1b…9e0d': enough of a hash to tell files apart at a glance; the whole one is copied. */
function shortHash(hash: string): string {
  return hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-4)}` : hash;
}

function HashCell({ hash, fileName }: { hash: string | null; fileName: string }) {
  const [copied, setCopied] = useState(false);
  if (!hash) return <>—</>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hash);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the whole hash stays readable in the title.
      setCopied(false);
    }
  };
  return (
    <span className="inbox-hash">
      <code title={hash}>
        <span aria-hidden="true">{shortHash(hash)}</span>
        <span className="visually-hidden">{hash}</span>
      </code>
      <Button
        variant="secondary"
        dense
        onPress={() => void copy()}
        aria-label={`Copy the SHA-256 of ${fileName}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </span>
  );
}

/** 'Meets spec', '1 issue', '2 issues'. */
export function specBadgeText(issues: number): string {
  if (issues === 0) return 'Meets spec';
  return issues === 1 ? '1 issue' : `${issues} issues`;
}

/**
 * A file's facts line (muted when the file could not be read) and, when its event has a spec, its badge:
 * a plain 'Meets spec', or a button naming the number of issues that shows or hides them.
 */
export function FileMedia({ file }: { file: UploadFileInfo & InboxFileMedia }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (!file.factsText || !file.check) return null;
  const { check } = file;
  const unreadable = check.verdict === 'unreadable';
  const whose = file.factsSource === 'client' ? ' (as the uploader’s device read it)' : '';
  return (
    <div className="inbox-media" data-testid="inbox-media">
      <p className={unreadable ? 'inbox-media__facts inbox-media__facts--unreadable' : 'inbox-media__facts'}>
        {file.factsText}
        {whose ? <span className="inbox-media__whose">{whose}</span> : null}
      </p>
      {file.specApplies && !unreadable ? (
        check.issues.length === 0 ? (
          <span className="inbox-badge inbox-badge--ok" data-testid="spec-badge">
            Meets spec
          </span>
        ) : (
          <>
            <button
              type="button"
              className={`inbox-badge inbox-badge--${check.verdict}`}
              data-testid="spec-badge"
              aria-expanded={open}
              aria-controls={listId}
              aria-label={`${specBadgeText(check.issues.length)} with the event's media spec: ${open ? 'hide' : 'show'} for ${file.name}`}
              onClick={() => setOpen((v) => !v)}
            >
              {specBadgeText(check.issues.length)}
              <span aria-hidden="true" className="inbox-badge__chevron">
                {open ? '▴' : '▾'}
              </span>
            </button>
            <ul id={listId} className="inbox-media__issues" hidden={!open}>
              {check.issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          </>
        )
      ) : null}
    </div>
  );
}

async function fetchInbox(formType: string, handled: string): Promise<InboxSubmission[]> {
  const query = new URLSearchParams();
  if (formType !== 'all') query.set('form_type', formType);
  if (handled !== 'all') query.set('handled', handled);
  const body = await apiRequest<{ submissions: InboxSubmission[] }>('GET', `/api/uploads/inbox?${query}`);
  return body.submissions;
}

export default function InboxPage() {
  useDocumentTitle('Uploads inbox');
  const [params] = useSearchParams();
  const zone = useStaffTimeZone();
  const highlight = params.get('submission');
  const [formType, setFormType] = useState('all');
  const [handled, setHandled] = useState('all');
  const [rows, setRows] = useState<InboxSubmission[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    let current = true;
    fetchInbox(formType, handled).then(
      (submissions) => {
        if (!current) return;
        setRows(submissions);
        setFailure(null);
      },
      (error: unknown) => {
        if (current) setFailure(errorMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, [formType, handled, version]);

  async function mark(id: string, value: boolean) {
    try {
      await apiRequest('PUT', `/api/uploads/inbox/${id}/handled`, { handled: value });
      reload();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <section className="uploads-inbox" aria-labelledby="inbox-title">
      <h1 id="inbox-title">Uploads inbox</h1>
      <div className="uploads-inbox-filters">
        <SelectField label="Form type" options={FORM_OPTIONS} value={formType} onChange={setFormType} />
        <SelectField label="Handled" options={HANDLED_OPTIONS} value={handled} onChange={setHandled} />
        <Button variant="secondary" onPress={reload}>
          Refresh
        </Button>
      </div>
      {failure ? (
        <p className="kit-error" role="alert">
          {failure}
        </p>
      ) : null}
      {rows === null ? <p role="status">Loading…</p> : null}
      {rows && rows.length === 0 ? <p>No submissions.</p> : null}
      {rows?.map((row) => (
        <article
          key={row.id}
          aria-label={`Submission from ${row.client.firstName} ${row.client.lastName}`}
          className={row.id === highlight ? 'uploads-highlight' : undefined}
          data-testid="inbox-submission"
        >
          <h2>
            {TITLES[row.formType]} — {row.client.firstName} {row.client.lastName}
            {row.client.company ? ` (${row.client.company})` : ''}
          </h2>
          <p>
            {row.client.email} · sent {row.submittedAt ? formatDateTime(row.submittedAt, zone) : ''} ·{' '}
            {row.handledAt ? 'Handled' : 'Not handled'}
          </p>
          <dl>
            {Object.entries(row.fields)
              .filter(([, value]) => value !== '')
              .map(([key, value]) => (
                <div key={key}>
                  <dt>{FIELD_LABELS[key] ?? key}</dt>
                  <dd>{key === 'session_datetime' ? formatWallDateTime(value) : value}</dd>
                </div>
              ))}
          </dl>
          <div className="uploads-table-scroll">
            <table className="inbox-files" aria-label="Files">
              <thead>
                <tr>
                  <th>File</th>
                  <th>Size</th>
                  <th>SHA-256</th>
                  <th>Status</th>
                  <th>
                    <span className="visually-hidden">Download</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {row.files.map((file) => (
                  <tr key={file.id} data-testid="inbox-file">
                    <td className="inbox-files__name">
                      <span className="inbox-files__filename">{file.name}</span>
                      <FileMedia file={file} />
                    </td>
                    <td data-label="Size">{formatBytes(file.size)}</td>
                    <td data-label="SHA-256">
                      <HashCell hash={file.sha256} fileName={file.name} />
                    </td>
                    <td data-label="Status">{inboxStatus(file)}</td>
                    <td className="inbox-files__download">
                      {file.status === 'complete' ? (
                        <a href={`/api/uploads/inbox/files/${file.id}/download`} download>
                          Download
                        </a>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Button variant="secondary" onPress={() => void mark(row.id, row.handledAt === null)}>
            {row.handledAt ? 'Mark not handled' : 'Mark handled'}
          </Button>
        </article>
      ))}
    </section>
  );
}

/** A file's state for staff; an imported file names its provider and, while copying, how far it is. */
export function inboxStatus(file: UploadFileInfo): string {
  const info = file.import;
  if (!info) return file.status === 'complete' ? 'Complete' : 'Uploading';
  const provider = PROVIDER_LABELS[info.provider];
  switch (info.status) {
    case 'complete':
      return `Complete (from ${provider})`;
    case 'needs_auth':
      return `Waiting for the client to sign in to ${provider} again`;
    case 'failed':
      return `Import from ${provider} failed: ${info.error ?? ''}`.trim();
    default: {
      const percent = file.size > 0 ? Math.floor((Math.min(info.bytesDone, file.size) / file.size) * 100) : 0;
      return `Copying from ${provider} (${percent}%)`;
    }
  }
}
