import { inboxFileUrls, inboxQuerySchema } from '@avp/shared';
import type {
  InboxEventGroup,
  InboxFile,
  InboxPage,
  InboxSubmissionRef,
  ReviewCounts,
  ReviewState,
} from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import type { SubmissionFileInstance, SubmissionInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { specsApplying } from './inbox.js';
import { mediaOfFiles } from './media-probe.js';
import { inlineType } from './posters-route.js';

/**
 * The staff inbox as pages of files (issue #31): filtered, searched, counted and paged in SQL, so ten
 * thousand files cost two grouped queries and one page of rows, never a load of everything into JS.
 * Only each file's latest version is listed; older ones hang off it.
 */

type Query = ReturnType<typeof inboxQuerySchema.parse>;

/** The SQL expressions of a file's row, by dialect (the submission's fields are JSON text on SQLite). */
function expressions(db: Database) {
  const field = (key: string) =>
    db.dialect === 'postgres' ? `(s.fields::json->>'${key}')` : `json_extract(s.fields, '$.${key}')`;
  const event = `COALESCE(ue.name, NULLIF(TRIM(${field('event_name')}), ''), '')`;
  const company = `COALESCE(NULLIF(TRIM(${field('sponsor_company')}), ''), NULLIF(TRIM(u.company), ''), TRIM(u.first_name || ' ' || u.last_name))`;
  return {
    event,
    company,
    verdict: 'COALESCE(mf.verdict, f.check_verdict)',
    received: 'COALESCE(f.completed_at, s.submitted_at)',
    search: `LOWER(u.first_name || ' ' || u.last_name || ' ' || u.email || ' ' || ${company} || ' ' || ${event} || ' ' || f.name)`,
  };
}

/** A day 'YYYY-MM-DD' (UTC) or an ISO instant; `end` makes a bare day inclusive. */
function instant(value: string | undefined, end: boolean): Date | null {
  if (!value) return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(day ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw new AppError(400, 'validation_error', 'Give dates as YYYY-MM-DD.');
  }
  if (day && end) date.setUTCDate(date.getUTCDate() + 1);
  return date;
}

/** The shared FROM and WHERE of the inbox's queries, with their bind values. */
function matching(db: Database, q: Query, withEvent: boolean): { sql: string; bind: unknown[] } {
  const x = expressions(db);
  const bind: unknown[] = [];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const where = [
    "s.status = 'submitted'",
    'NOT EXISTS (SELECT 1 FROM submission_files n WHERE n.replaces_file_id = f.id)',
  ];
  if (q.submission) where.push(`s.id = ${param(q.submission)}`);
  if (q.formType) where.push(`s.form_type = ${param(q.formType)}`);
  if (q.review) where.push(`f.review_state = ${param(q.review)}`);
  if (q.handled) where.push(`s.handled_at IS ${q.handled === 'yes' ? 'NOT ' : ''}NULL`);
  if (q.spec === 'ok') where.push(`${x.verdict} = 'ok'`);
  if (q.spec === 'issues') where.push(`${x.verdict} IN ('warn', 'block')`);
  if (q.spec === 'unreadable') where.push(`${x.verdict} = 'unreadable'`);
  if (q.spec === 'unknown') where.push(`${x.verdict} IS NULL`);
  const from = instant(q.from, false);
  const to = instant(q.to, true);
  if (from) where.push(`${x.received} >= ${param(dateParam(db.dialect, from))}`);
  if (to) where.push(`${x.received} < ${param(dateParam(db.dialect, to))}`);
  if (q.q) {
    const like = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`${x.search} LIKE ${param(like)} ESCAPE '\\'`);
  }
  if (withEvent && q.event !== undefined) {
    where.push(`LOWER(${x.event}) = ${param(q.event.replace(/\s+/g, ' ').toLowerCase())}`);
  }
  const sql = `SELECT f.id AS id, f.review_state AS review_state, f.created_at AS created_at,
      s.submitted_at AS submitted_at, ${x.event} AS event, ${x.company} AS company
    FROM submission_files f
    JOIN submissions s ON s.id = f.submission_id
    JOIN users u ON u.id = s.user_id
    LEFT JOIN upload_events ue ON ue.id = s.upload_event_id
    LEFT JOIN media_facts mf ON mf.file_id = f.id AND mf.source = 'server'
    WHERE ${where.join(' AND ')}`;
  return { sql, bind };
}

interface GroupRow {
  event_key: string;
  event: string;
  company_key: string;
  company: string;
  files: number | string;
  accepted: number | string;
  needs: number | string;
  fresh: number | string;
}

const zero = (): ReviewCounts => ({ files: 0, accepted: 0, needsNewVersion: 0, new: 0 });
function add(into: ReviewCounts, row: GroupRow): void {
  into.files += Number(row.files);
  into.accepted += Number(row.accepted);
  into.needsNewVersion += Number(row.needs);
  into.new += Number(row.fresh);
}

export async function listInboxPage(db: Database, query: unknown): Promise<InboxPage> {
  // An empty parameter (a form's `?q=&formType=`) means no filter.
  const raw = Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).filter(([, value]) => value !== ''),
  );
  // form_type: the name the first inbox used.
  const q = inboxQuerySchema.parse({ ...raw, formType: raw.formType ?? raw.form_type });
  const all = matching(db, q, false);
  const groupRows = await db.sequelize.query<GroupRow>(
    `SELECT LOWER(m.event) AS event_key, MIN(m.event) AS event, LOWER(m.company) AS company_key,
        MIN(m.company) AS company, COUNT(*) AS files,
        SUM(CASE WHEN m.review_state = 'accepted' THEN 1 ELSE 0 END) AS accepted,
        SUM(CASE WHEN m.review_state = 'needs_new_version' THEN 1 ELSE 0 END) AS needs,
        SUM(CASE WHEN m.review_state = 'new' THEN 1 ELSE 0 END) AS fresh
      FROM (${all.sql}) m
      GROUP BY LOWER(m.event), LOWER(m.company)`,
    { bind: all.bind, type: QueryTypes.SELECT },
  );
  const eventKey = q.event?.replace(/\s+/g, ' ').toLowerCase();
  const inEvent = groupRows.filter((g) => eventKey === undefined || g.event_key === eventKey);
  const counts = zero();
  for (const row of inEvent) add(counts, row);
  // One spelling per event: the same for every company's row and on every page.
  const label = new Map<string, string>();
  for (const g of groupRows) {
    const seen = label.get(g.event_key);
    if (seen === undefined || g.event < seen) label.set(g.event_key, g.event);
  }
  const events = [...label.values()].filter((name) => name !== '').sort((a, b) => a.localeCompare(b));

  const paged = matching(db, q, true);
  const offset = (q.page - 1) * q.pageSize;
  // Events by name with no event last, then companies, then newest submissions first.
  const ids = await db.sequelize.query<{ id: string }>(
    `SELECT m.id FROM (${paged.sql}) m
      ORDER BY CASE WHEN m.event = '' THEN 1 ELSE 0 END, LOWER(m.event), LOWER(m.company),
        m.submitted_at DESC, m.created_at, m.id
      LIMIT ${q.pageSize} OFFSET ${offset}`,
    { bind: paged.bind, type: QueryTypes.SELECT },
  );
  const files = await inboxFiles(
    db,
    ids.map((r) => r.id),
  );

  const groups: InboxEventGroup[] = [];
  for (const id of ids.map((r) => r.id)) {
    const file = files.get(id);
    if (!file) continue;
    const { company } = file.grouping;
    const event = label.get(file.grouping.event.toLowerCase()) ?? file.grouping.event;
    let group = groups.find((g) => g.event.toLowerCase() === event.toLowerCase());
    if (!group) {
      group = { event, counts: zero(), companies: [] };
      for (const row of inEvent.filter((g) => g.event_key === event.toLowerCase())) add(group.counts, row);
      groups.push(group);
    }
    let inCompany = group.companies.find((c) => c.company.toLowerCase() === company.toLowerCase());
    if (!inCompany) {
      inCompany = { company, counts: zero(), files: [] };
      const key = company.toLowerCase();
      for (const row of inEvent.filter((g) => g.event_key === event.toLowerCase() && g.company_key === key)) {
        add(inCompany.counts, row);
      }
      group.companies.push(inCompany);
    }
    inCompany.files.push(file.file);
  }
  return {
    page: q.page,
    pageSize: q.pageSize,
    total: counts.files,
    pageCount: Math.max(1, Math.ceil(counts.files / q.pageSize)),
    counts,
    groups,
    events,
  };
}

/** Inbox files by id (each with its submission, media facts and older versions). */
export async function inboxFiles(
  db: Database,
  ids: string[],
): Promise<Map<string, { file: InboxFile; grouping: { event: string; company: string } }>> {
  const out = new Map<string, { file: InboxFile; grouping: { event: string; company: string } }>();
  if (ids.length === 0) return out;
  const { Submission, SubmissionFile, User, UploadEvent } = db.models;
  const rows = await SubmissionFile.findAll({ where: { id: ids } });
  const submissions = await Submission.findAll({
    where: { id: [...new Set(rows.map((r) => r.submissionId))] },
  });
  const users = await User.findAll({ where: { id: [...new Set(submissions.map((s) => s.userId))] } });
  const eventIds = [...new Set(submissions.map((s) => s.uploadEventId).filter((e): e is string => !!e))];
  const events = eventIds.length ? await UploadEvent.findAll({ where: { id: eventIds } }) : [];
  const media = await mediaOfFiles(db, rows);
  const specs = await specsApplying(db, submissions);
  const older = await olderVersions(db, rows);
  const bySubmission = new Map(submissions.map((s) => [s.id, s]));
  const byUser = new Map(users.map((u) => [u.id, u]));
  const eventName = new Map(events.map((e) => [e.id, e.name]));
  for (const row of rows) {
    const submission = bySubmission.get(row.submissionId);
    if (!submission) continue;
    const user = byUser.get(submission.userId);
    const fields = submission.fields as Record<string, string>;
    const company =
      fields.sponsor_company?.trim() ||
      user?.company?.trim() ||
      `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim();
    const event =
      (submission.uploadEventId && eventName.get(submission.uploadEventId)) ||
      fields.event_name?.trim() ||
      '';
    const m = media.get(row.id);
    const urls = inboxFileUrls(row.id);
    const complete = row.status === 'complete';
    out.set(row.id, {
      grouping: { event, company },
      file: {
        id: row.id,
        name: row.name,
        size: Number(row.size),
        type: row.type,
        status: row.status,
        sha256: complete ? row.sha256 : null,
        facts: m?.facts ?? null,
        factsText: m?.factsText ?? null,
        check: m?.check ?? null,
        specApplies: specs.has(submission.id),
        review: {
          state: row.reviewState as ReviewState,
          message: row.reviewMessage,
          reviewedAt: row.reviewedAt?.toISOString() ?? null,
        },
        version: row.version,
        replacesFileId: row.replacesFileId,
        previousVersions: (older.get(row.id) ?? []).map((v) => ({
          id: v.id,
          version: v.version,
          receivedAt: v.completedAt?.toISOString() ?? null,
          downloadUrl: inboxFileUrls(v.id).downloadUrl,
        })),
        receivedAt: (row.completedAt ?? submission.submittedAt)?.toISOString() ?? null,
        posterUrl: complete && row.posterState === 'made' ? urls.posterUrl : null,
        previewUrl: complete && inlineType(row.type) ? urls.previewUrl : null,
        downloadUrl: urls.downloadUrl,
        submission: toSubmissionRef(submission, user),
      },
    });
  }
  return out;
}

function toSubmissionRef(
  submission: SubmissionInstance,
  user:
    { id: number; email: string; firstName: string; lastName: string; company: string | null } | undefined,
): InboxSubmissionRef {
  return {
    id: submission.id,
    formType: submission.formType,
    fields: submission.fields as Record<string, string>,
    submittedAt: submission.submittedAt?.toISOString() ?? null,
    handledAt: submission.handledAt?.toISOString() ?? null,
    client: {
      id: submission.userId,
      email: user?.email ?? '',
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      company: user?.company ?? '',
    },
  };
}

/** Each file's older versions, newest first, by walking replaces_file_id (a few hops at most). */
export async function olderVersions(
  db: Database,
  files: SubmissionFileInstance[],
): Promise<Map<string, SubmissionFileInstance[]>> {
  const out = new Map<string, SubmissionFileInstance[]>();
  let frontier = new Map(files.filter((f) => f.replacesFileId).map((f) => [f.id, f.replacesFileId!]));
  for (const f of files) out.set(f.id, []);
  // Versions are few; the bound only guards against a cycle written by hand into the database.
  for (let hop = 0; hop < 50 && frontier.size > 0; hop += 1) {
    const rows = await db.models.SubmissionFile.findAll({ where: { id: [...new Set(frontier.values())] } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const next = new Map<string, string>();
    for (const [origin, id] of frontier) {
      const row = byId.get(id);
      if (!row) continue;
      out.get(origin)!.push(row);
      if (row.replacesFileId) next.set(origin, row.replacesFileId);
    }
    frontier = next;
  }
  return out;
}
