/**
 * The staff inbox (/staff/uploads, #31): files grouped by upload event, then company or client, with counts
 * (files, accepted, needing a new version, new) per group; search and filters; paged on the server. Each
 * group's files are shown under the submission they came with (client, form type, fields, Mark handled),
 * each file as a card (InboxFileCard.tsx) with its preview and review controls. Each event with files links
 * its manifest as CSV. The staff layout around it (web/src/app/staff/StaffLayout.tsx) signs staff in.
 */
import {
  DEFAULT_TZ_STORE,
  formatDateTime,
  formatWallDateTime,
  type InboxCompanyGroup,
  type InboxFile,
  type InboxPage as InboxPageBody,
  type InboxSubmission,
  type ReviewCounts,
  type UploadFileInfo,
} from '@avp/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { apiRequest, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button } from '../../ui';
import { InboxFileCard } from './InboxFileCard';
import { InboxFilters, NO_FILTERS, type InboxFilterValues } from './InboxFilters';
import { TITLES } from './UploadForms';
import './uploads.css';
import './inbox.css';

export { FileMedia, inboxStatus, specBadgeText } from './InboxFileParts';

const PAGE_SIZE = 50;

const FIELD_LABELS: Record<string, string> = {
  project_name: 'Project name',
  event_name: 'Event name',
  session_datetime: 'Session',
  speaker_name: 'Speaker',
  room_no: 'Room',
  sponsor_company: 'Sponsor company',
  description: 'Description',
};

type InboxAnswer = InboxPageBody & { submissions: InboxSubmission[] };

/** The company's zone (TZ_STORE), which staff screens print times in; the same cache entry as theirs. */
function useStaffTimeZone(): string {
  const { data } = useQuery({
    queryKey: ['staff', 'settings'],
    queryFn: () => apiRequest<{ time_zone: string }>('GET', '/api/staff/settings'),
    staleTime: Infinity,
  });
  return data?.time_zone ?? DEFAULT_TZ_STORE;
}

/** '12 files · 3 accepted · 1 needs a new version · 8 new'. */
export function countsText(counts: ReviewCounts): string {
  const files = counts.files === 1 ? '1 file' : `${counts.files} files`;
  const needs = `${counts.needsNewVersion} ${counts.needsNewVersion === 1 ? 'needs' : 'need'} a new version`;
  return `${files} · ${counts.accepted} accepted · ${needs} · ${counts.new} new`;
}

function inboxUrl(filters: InboxFilterValues, page: number, submission: string | null): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (submission) query.set('submission', submission);
  query.set('page', String(page));
  query.set('pageSize', String(PAGE_SIZE));
  return `/api/uploads/inbox?${query}`;
}

function manifestUrl(event: string): string {
  return `/api/uploads/pull?${new URLSearchParams({ event, format: 'csv' })}`;
}

/** A company group's files under the submissions they came with, in the page's order. */
function bySubmission(group: InboxCompanyGroup): InboxFile[][] {
  const runs = new Map<string, InboxFile[]>();
  for (const file of group.files) {
    const run = runs.get(file.submission.id);
    if (run) run.push(file);
    else runs.set(file.submission.id, [file]);
  }
  return [...runs.values()];
}

export default function InboxPage() {
  useDocumentTitle('Uploads inbox');
  const [params, setParams] = useSearchParams();
  const zone = useStaffTimeZone();
  const highlight = params.get('submission');
  const [filters, setFilters] = useState<InboxFilterValues>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['staff', 'uploads-inbox', filters, page, highlight],
    // A staff notice links to one submission: the list shows just it until staff ask for all.
    queryFn: () => apiRequest<InboxAnswer>('GET', inboxUrl(filters, page, highlight)),
    placeholderData: keepPreviousData,
  });
  const body = query.data ?? null;
  const loading = query.isFetching;
  const [actionFailure, setFailure] = useState<string | null>(null);
  const failure = actionFailure ?? (query.error ? errorMessage(query.error) : null);
  const reload = () => {
    setFailure(null);
    void query.refetch();
  };

  const legacy = useMemo(() => {
    const files = new Map<string, UploadFileInfo>();
    const submissions = new Map<string, InboxSubmission>();
    for (const submission of body?.submissions ?? []) {
      submissions.set(submission.id, submission);
      for (const file of submission.files) files.set(file.id, file);
    }
    return { files, submissions };
  }, [body]);

  async function mark(id: string, value: boolean) {
    try {
      await apiRequest('PUT', `/api/uploads/inbox/${id}/handled`, { handled: value });
      reload();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const filtered = Object.values(filters).some((value) => value !== '');

  return (
    <section className="uploads-inbox" aria-labelledby="inbox-title" aria-busy={loading}>
      <h1 id="inbox-title">Uploads inbox</h1>
      <InboxFilters
        value={filters}
        events={body?.events ?? []}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      {highlight ? (
        <p className="inbox-one-submission">
          Showing one submission, from the link you followed.{' '}
          <Button
            variant="secondary"
            onPress={() => {
              setParams({});
              setPage(1);
            }}
          >
            Show all submissions
          </Button>
        </p>
      ) : null}
      <div className="inbox-summary">
        {body ? (
          <p role="status" data-testid="inbox-counts">
            {countsText(body.counts)}
          </p>
        ) : null}
        <Button variant="secondary" onPress={reload}>
          Refresh
        </Button>
      </div>
      {failure ? (
        <p className="kit-error" role="alert">
          {failure}
        </p>
      ) : null}
      {loading && !body ? <p role="status">Loading…</p> : null}
      {body && body.total === 0 ? (
        <p>{filtered ? 'No files match these filters.' : 'No submissions.'}</p>
      ) : null}
      {body?.groups.map((group) => (
        <section
          key={`event:${group.event}`}
          className="inbox-event"
          aria-label={group.event || 'No event'}
          data-testid="inbox-event"
        >
          <div className="inbox-event__head">
            <h2>{group.event || 'No event'}</h2>
            <p className="inbox-counts">{countsText(group.counts)}</p>
            {group.event ? (
              <a href={manifestUrl(group.event)} download aria-label={`Manifest (CSV) of ${group.event}`}>
                Manifest (CSV)
              </a>
            ) : null}
          </div>
          {group.companies.map((company) => (
            <section
              key={`company:${company.company}`}
              className="inbox-company"
              aria-label={`${company.company} at ${group.event || 'no event'}`}
              data-testid="inbox-company"
            >
              <h3>{company.company}</h3>
              <p className="inbox-counts">{countsText(company.counts)}</p>
              {bySubmission(company).map((files) => {
                const ref = files[0]!.submission;
                const row = legacy.submissions.get(ref.id);
                const handledAt = row ? row.handledAt : ref.handledAt;
                return (
                  <article
                    key={ref.id}
                    aria-label={`Submission from ${ref.client.firstName} ${ref.client.lastName}`}
                    className={ref.id === highlight ? 'uploads-highlight' : undefined}
                    data-testid="inbox-submission"
                  >
                    <h4>
                      {TITLES[ref.formType]} — {ref.client.firstName} {ref.client.lastName}
                      {ref.client.company ? ` (${ref.client.company})` : ''}
                    </h4>
                    <p>
                      {ref.client.email} · sent {ref.submittedAt ? formatDateTime(ref.submittedAt, zone) : ''}{' '}
                      · {handledAt ? 'Handled' : 'Not handled'}
                    </p>
                    <dl className="inbox-fields">
                      {Object.entries(ref.fields)
                        .filter(([, value]) => value !== '')
                        .map(([key, value]) => (
                          <div key={key}>
                            <dt>{FIELD_LABELS[key] ?? key}</dt>
                            <dd>{key === 'session_datetime' ? formatWallDateTime(value) : value}</dd>
                          </div>
                        ))}
                    </dl>
                    <ul className="inbox-cards" aria-label="Files">
                      {files.map((file) => (
                        <InboxFileCard
                          key={file.id}
                          file={file}
                          legacy={legacy.files.get(file.id)}
                          zone={zone}
                          onChanged={reload}
                        />
                      ))}
                    </ul>
                    <Button variant="secondary" onPress={() => void mark(ref.id, handledAt === null)}>
                      {handledAt ? 'Mark not handled' : 'Mark handled'}
                    </Button>
                  </article>
                );
              })}
            </section>
          ))}
        </section>
      ))}
      {body && body.pageCount > 1 ? (
        <nav className="inbox-pages" aria-label="Inbox pages">
          <Button variant="secondary" isDisabled={page <= 1} onPress={() => setPage(page - 1)}>
            Previous page
          </Button>
          <span>
            Page {body.page} of {body.pageCount} ({body.total} files)
          </span>
          <Button variant="secondary" isDisabled={page >= body.pageCount} onPress={() => setPage(page + 1)}>
            Next page
          </Button>
        </nav>
      ) : null}
    </section>
  );
}
