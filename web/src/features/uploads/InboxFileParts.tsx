/**
 * The pieces of a staff inbox file card (InboxFileCard.tsx): the shortened SHA-256 with its copy button,
 * the media facts and spec badge (#30), the upload/import status and the preview.
 */
import type { InboxFileMedia, UploadFileInfo } from '@avp/shared';
import { useId, useState } from 'react';
import { Button } from '../../ui';
import { PROVIDER_LABELS } from './cloud/pickers';

/** '3f2a9c1b…9e0d': enough of a hash to tell files apart at a glance; the whole one is copied. */
function shortHash(hash: string): string {
  return hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-4)}` : hash;
}

export function HashCell({ hash, fileName }: { hash: string | null; fileName: string }) {
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
