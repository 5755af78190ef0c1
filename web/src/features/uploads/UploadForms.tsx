/**
 * The web portal's upload form: the page has chosen the form (the URL hash), the files are the browser's
 * Files and the cloud accounts' picks (FilePicker), and a valid form's fields go to the page to be sent.
 * The Event name suggests the open upload events (GET /api/upload-events); each picked File's media facts
 * are read in a worker (media-facts.ts) and shown under its row with the named event's spec checked
 * against them; a file that spec blocks keeps the form from being sent (issue #30).
 */
import {
  truncateFileName,
  type SubmissionFields,
  type UploadEventPublic,
  type UploadEventsResponse,
  type UploadFormType,
} from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { apiRequest } from '../../lib/api';
import { FilePicker, type CloudFilesProps } from './FilePicker';
import { useFilesFacts, type FileFacts } from './media-facts';
import { fileCheck, MediaFactsLine } from './MediaFactsLine';
import { appliedSpec, type AppliedSpec } from './media-spec';
import { UploadFormBase, type UploadFormValues } from './UploadFormBase';

export { fromSubmissionFields, TITLES, toSubmissionFields } from './UploadFormBase';

const NO_EVENTS: readonly UploadEventPublic[] = [];

/** The open upload events, for the Event name's suggestions; none while loading or when the call fails. */
export function useOpenUploadEvents(): readonly UploadEventPublic[] {
  const { data } = useQuery({
    queryKey: ['upload-events'],
    queryFn: () => apiRequest<UploadEventsResponse>('GET', '/api/upload-events').then((a) => a.events),
    staleTime: 60_000,
    retry: 1,
  });
  return data ?? NO_EVENTS;
}

/** The files the applied spec blocks, by their facts as read so far. */
export function blockedFiles(
  files: readonly File[],
  facts: { get(file: File): FileFacts | undefined },
  applied: AppliedSpec | null,
): File[] {
  if (!applied?.spec || applied.spec.onMismatch !== 'block') return [];
  return files.filter((file) => fileCheck(facts.get(file), applied)?.verdict === 'block');
}

/** Why the form cannot be sent: the blocked files by name, and what to do. */
export function blockedReason(blocked: readonly File[], applied: AppliedSpec | null): string | null {
  if (blocked.length === 0 || !applied) return null;
  const needs = `what ${applied.event.name}’s screens need`;
  if (blocked.length === 1) {
    return `${truncateFileName(blocked[0]!.name)} does not meet ${needs}, so it cannot be sent. Remove it or choose another file.`;
  }
  const names = blocked.map((f) => truncateFileName(f.name)).join(', ');
  return `${blocked.length} files do not meet ${needs}, so they cannot be sent: ${names}. Remove them or choose other files.`;
}

export interface UploadFormProps {
  formType: UploadFormType;
  files: File[];
  onFilesChange: (files: File[]) => void;
  /** Files picked from cloud accounts, in the same list (absent: no cloud buttons). */
  cloud?: CloudFilesProps | undefined;
  /** A valid form with no blocked file: its fields, and the event whose spec applies (null: free text). */
  onSubmit: (fields: SubmissionFields, applied: AppliedSpec | null) => void;
  children?: ReactNode;
  initialValues?: Partial<UploadFormValues> | undefined;
  submitSignal?: number | undefined;
}

export function UploadForm({
  formType,
  files,
  onFilesChange,
  cloud,
  onSubmit,
  children,
  initialValues,
  submitSignal,
}: UploadFormProps) {
  const cloudFiles = cloud?.files;
  const refs = useMemo(
    () => [
      ...files.map((f) => ({ name: f.name, size: f.size, type: f.type })),
      ...(cloudFiles ?? []).map((f) => ({ name: f.name, size: f.size ?? 0, type: f.mimeType ?? '' })),
    ],
    [files, cloudFiles],
  );
  const events = useOpenUploadEvents();
  const facts = useFilesFacts(files);
  const blockedBy = useCallback(
    (applied: AppliedSpec | null) => blockedReason(blockedFiles(files, facts, applied), applied),
    [files, facts],
  );
  return (
    <UploadFormBase
      formType={formType}
      files={refs}
      initialValues={initialValues}
      submitSignal={submitSignal}
      events={events}
      blockedBy={blockedBy}
      renderFiles={(errorMessage, applied) => (
        <FilePicker
          files={files}
          onChange={onFilesChange}
          cloud={cloud}
          errorMessage={errorMessage}
          detailsOf={(file) => <MediaFactsLine state={facts.get(file)} applied={applied} />}
        />
      )}
      onSubmit={(fields, values) => {
        onSubmit(fields, appliedSpec(events, values.event_name, values.form_type));
      }}
    >
      {children}
    </UploadFormBase>
  );
}
