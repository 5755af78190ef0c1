import { stringify } from 'csv-stringify/sync';
import { REVIEW_STATE_LABELS } from '@avp/shared';
import type { PullFile, PullResponse } from '@avp/shared';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { listInboxPage } from './inbox-list.js';

/**
 * The show pull (issue #31): every complete file of one event (its latest version), for av-upload pull
 * and the inbox's "Manifest (CSV)". It walks the inbox's own pages, so the event match (its text, case and
 * runs of spaces aside), the company and the facts are the inbox's.
 */

const pullQuerySchema = z.object({
  event: z
    .string({ error: 'Name the event to pull (event=).' })
    .trim()
    .min(1, { error: 'Name the event to pull (event=).' })
    .max(200),
  acceptedOnly: z.enum(['0', '1', 'true', 'false']).optional(),
  format: z.enum(['json', 'csv']).optional(),
});

export interface PullQuery {
  event: string;
  acceptedOnly: boolean;
  format: 'json' | 'csv';
}

export function parsePullQuery(raw: unknown): PullQuery {
  const parsed = pullQuerySchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new AppError(400, 'validation_error', parsed.error.issues[0]?.message ?? 'Check the query.');
  }
  const q = parsed.data;
  return {
    event: q.event,
    acceptedOnly: q.acceptedOnly === '1' || q.acceptedOnly === 'true',
    format: q.format ?? 'json',
  };
}

/** Pages of the inbox's largest size until the last: a show's files are hundreds, not millions. */
export async function pullFiles(db: Database, q: PullQuery): Promise<PullFile[]> {
  const out: PullFile[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await listInboxPage(db, {
      event: q.event,
      review: q.acceptedOnly ? 'accepted' : undefined,
      page: String(page),
      pageSize: '200',
    });
    for (const group of answer.groups) {
      for (const company of group.companies) {
        for (const file of company.files) {
          // Only bytes the server holds whole and verified can be pulled and checked.
          if (file.status !== 'complete' || !file.sha256) continue;
          const client = file.submission.client;
          out.push({
            id: file.id,
            company: company.company,
            client: `${client.firstName} ${client.lastName}`.trim() || client.email,
            name: file.name,
            size: file.size,
            sha256: file.sha256,
            factsText: file.factsText ?? '',
            reviewState: file.review.state,
            receivedAt: file.receivedAt ?? '',
            downloadUrl: file.downloadUrl,
          });
        }
      }
    }
    if (page >= answer.pageCount) break;
  }
  return out;
}

export const PULL_CSV_COLUMNS = [
  'company',
  'client',
  'file',
  'size',
  'sha-256',
  'facts',
  'review state',
  'received',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** The manifest as CSV (CRLF, a header row); a cell a spreadsheet would run as a formula gets an apostrophe. */
export function pullCsv(files: readonly PullFile[]): string {
  return stringify(
    files.map((f) => [
      f.company,
      f.client,
      f.name,
      f.size,
      f.sha256,
      f.factsText,
      REVIEW_STATE_LABELS[f.reviewState],
      f.receivedAt,
    ]),
    {
      header: true,
      columns: [...PULL_CSV_COLUMNS],
      record_delimiter: 'windows',
      quote_record_delimiter: true,
      cast: { string: (value) => (FORMULA_START.test(value) ? `'${value}` : value) },
    },
  );
}

/** A file name for the manifest download: the event's name in safe characters. */
export function pullCsvName(event: string): string {
  const slug = event
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `manifest-${slug || 'event'}.csv`;
}

/** GET /api/uploads/pull?event=&acceptedOnly=1[&format=csv] (staff; mounted behind the Media role). */
export function pullRoute(db: Database): RequestHandler {
  return (req, res, next) => {
    const run = async () => {
      const q = parsePullQuery(req.query);
      const files = await pullFiles(db, q);
      res.set('Cache-Control', 'no-store');
      if (q.format === 'csv') res.attachment(pullCsvName(q.event)).send(pullCsv(files));
      else res.json({ files } satisfies PullResponse);
    };
    run().catch(next);
  };
}
