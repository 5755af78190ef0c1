import { formatBytes, formatWallDateTime, MEDIA_UNREADABLE } from '@avp/shared';
import type { InboxFileMedia } from '@avp/shared';
import type { Transaction } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { FormType, SubmissionFileInstance, UserInstance } from '../../db/models/index.js';
import { enqueueMail } from '../mail/index.js';
import { specForSubmission } from '../upload-events/index.js';
import { mediaOfFiles } from './media-probe.js';

const FORM_LABELS: Record<string, string> = {
  creative: 'Creative asset',
  event: 'Event asset',
  sponsor: 'Sponsor commercial',
};

const FIELD_LABELS: Record<string, string> = {
  project_name: 'Project name',
  event_name: 'Event name',
  session_datetime: 'Session date and time',
  speaker_name: 'Speaker name',
  room_no: 'Room',
  sponsor_company: 'Sponsor company',
  description: 'Description',
};

export function formLabel(formType: string): string {
  return FORM_LABELS[formType] ?? formType;
}

/** 'a creative asset', 'an event asset'. */
function withArticle(words: string): string {
  return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}

/** The path of a submission in the staff inbox (web/src/features/uploads, /staff/uploads). */
export function inboxPath(submissionId: string): string {
  return `/staff/uploads?submission=${encodeURIComponent(submissionId)}`;
}

function fieldLines(fields: Record<string, unknown>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => typeof value === 'string' && value !== '')
    .map(([key, value]) => {
      // The session's time as the client typed it, on the event's clock: read like the staff screens' times.
      const shown = key === 'session_datetime' ? formatWallDateTime(String(value)) : String(value);
      return `${FIELD_LABELS[key] ?? key}: ${shown}`;
    });
}

function fileLines(files: SubmissionFileInstance[]): string[] {
  return files.map((f) => `- ${f.name} (${formatBytes(Number(f.size))}, sha-256 ${f.sha256 ?? '—'})`);
}

/** 'Meets spec', '1 issue', '2 issues' (the inbox badge's words). */
export function specBadge(issues: number): string {
  if (issues === 0) return 'Meets spec';
  return issues === 1 ? '1 issue' : `${issues} issues`;
}

/**
 * The staff notice's file list (issue #30): each file's facts in words and its issues against the event's
 * spec, by the server's reading when it was done in time, else by the uploader's (and said so).
 */
function staffFileLines(
  files: SubmissionFileInstance[],
  media: Map<string, InboxFileMedia>,
  specApplies: boolean,
): string[] {
  return files.flatMap((f) => {
    const line = fileLines([f])[0]!;
    const known = media.get(f.id);
    if (!known?.check) return [line];
    const whose = known.factsSource === 'client' ? " (the uploader's reading)" : '';
    const lines = [line, `  ${known.factsText ?? MEDIA_UNREADABLE}${whose}`];
    if (known.check.verdict === 'unreadable' || (!specApplies && known.check.issues.length === 0))
      return lines;
    lines.push(`  ${specBadge(known.check.issues.length)}${known.check.issues.length ? ':' : ''}`);
    for (const issue of known.check.issues) lines.push(`    - ${issue}`);
    return lines;
  });
}

/**
 * The two e-mails of a submission (issue 8): staff get the fields, the files and a link to the inbox;
 * the client gets a receipt listing the files. Both are queued in the caller's transaction.
 */
export async function queueSubmissionMails(
  deps: { config: Pick<Config, 'PUBLIC_URL' | 'STAFF_EMAIL'>; db: Database },
  data: {
    submission: { id: string; formType: string; fields: Record<string, unknown> };
    files: SubmissionFileInstance[];
    owner: UserInstance | null;
  },
  transaction: Transaction,
): Promise<void> {
  const { submission, files, owner } = data;
  const label = formLabel(submission.formType);
  const who = owner ? `${owner.firstName} ${owner.lastName}`.trim() : 'a client';
  const company = owner?.company ? ` (${owner.company})` : '';
  const link = `${deps.config.PUBLIC_URL}${inboxPath(submission.id)}`;
  const media = await mediaOfFiles(deps.db, files, transaction);
  const row = await deps.db.models.Submission.findByPk(submission.id, {
    attributes: ['uploadEventId'],
    transaction,
  });
  const specApplies =
    (await specForSubmission(
      deps.db,
      {
        uploadEventId: row?.uploadEventId ?? null,
        formType: submission.formType as FormType,
      },
      transaction,
    )) !== null;
  await enqueueMail(
    deps.db,
    {
      to: deps.config.STAFF_EMAIL,
      subject: `New upload: ${label} from ${who}${company}`,
      text: [
        `${who}${company}${owner ? ` <${owner.email}>` : ''} sent ${withArticle(label.toLowerCase())} submission.`,
        '',
        ...fieldLines(submission.fields),
        '',
        `Files (${files.length}):`,
        ...staffFileLines(files, media, specApplies),
        '',
        `Open it in the staff inbox: ${link}`,
      ].join('\n'),
    },
    { transaction },
  );
  if (owner) {
    await enqueueMail(
      deps.db,
      {
        to: owner.email,
        subject: 'We received your files',
        text: [
          `Hello ${owner.firstName},`,
          '',
          `Thank you: we received your ${label.toLowerCase()} submission with these files:`,
          ...fileLines(files),
          '',
          ...fieldLines(submission.fields),
        ].join('\n'),
      },
      { transaction },
    );
  }
}
