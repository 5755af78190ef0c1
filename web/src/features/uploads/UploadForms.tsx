/**
 * The web portal's upload form: the page has chosen the form (the URL hash), the files are the browser's
 * Files and the cloud accounts' picks (FilePicker), and a valid form's fields go to the page to be sent.
 */
import type { SubmissionFields, UploadFormType } from '@avp/shared';
import { useMemo, type ReactNode } from 'react';
import { FilePicker, type CloudFilesProps } from './FilePicker';
import { UploadFormBase, type UploadFormValues } from './UploadFormBase';

export { fromSubmissionFields, TITLES, toSubmissionFields } from './UploadFormBase';

export interface UploadFormProps {
  formType: UploadFormType;
  files: File[];
  onFilesChange: (files: File[]) => void;
  /** Files picked from cloud accounts, in the same list (absent: no cloud buttons). */
  cloud?: CloudFilesProps | undefined;
  onSubmit: (fields: SubmissionFields) => void;
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
  return (
    <UploadFormBase
      formType={formType}
      files={refs}
      initialValues={initialValues}
      submitSignal={submitSignal}
      renderFiles={(errorMessage) => (
        <FilePicker files={files} onChange={onFilesChange} cloud={cloud} errorMessage={errorMessage} />
      )}
      onSubmit={(fields) => {
        onSubmit(fields);
      }}
    >
      {children}
    </UploadFormBase>
  );
}
