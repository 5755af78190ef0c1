/**
 * Files by drag-and-drop or the system picker, many at once, and from the configured cloud accounts'
 * pickers, all in one list; names cut at 24 characters (SPEC §2).
 */
import { formatBytes, truncateFileName, type CloudPickerConfig } from '@avp/shared';
import { useId, useRef, useState } from 'react';
import { Button } from '../../ui';
import { CloudButtons } from './cloud/CloudButtons';
import { PROVIDER_LABELS, type PickedCloudFile } from './cloud/pickers';

export interface CloudFilesProps {
  providers: CloudPickerConfig[];
  files: PickedCloudFile[];
  onChange: (files: PickedCloudFile[]) => void;
}

export interface FilePickerProps {
  files: File[];
  onChange: (files: File[]) => void;
  cloud?: CloudFilesProps | undefined;
  errorMessage?: string | undefined;
}

const samePick = (a: PickedCloudFile, b: PickedCloudFile) =>
  a.provider === b.provider && a.fileId === b.fileId && a.link === b.link;

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

export function FilePicker({ files, onChange, cloud, errorMessage }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const errorId = useId();
  const cloudFiles = cloud?.files ?? [];
  const add = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const added = [...list].filter((f) => !files.some((g) => sameFile(f, g)));
    onChange([...files, ...added]);
  };
  return (
    <div className="uploads-files">
      <div
        className={`uploads-drop${over ? ' uploads-drop--over' : ''}${errorMessage ? ' uploads-drop--error' : ''}`}
        data-testid="upload-dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer.files);
        }}
        aria-describedby={errorMessage ? errorId : undefined}
      >
        <p>Drag and drop files here, or</p>
        <Button variant="secondary" onPress={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Choose files"
          data-testid="upload-file-input"
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        {cloud ? (
          <CloudButtons
            providers={cloud.providers}
            onError={setPickError}
            onPicked={(picked) =>
              cloud.onChange([
                ...cloud.files,
                ...picked.filter((p) => !cloud.files.some((q) => samePick(p, q))),
              ])
            }
          />
        ) : null}
      </div>
      {pickError ? (
        <p className="kit-error uploads-error" role="alert">
          {pickError}
        </p>
      ) : null}
      {errorMessage ? (
        <p id={errorId} className="kit-error uploads-error" role="alert">
          {errorMessage}
        </p>
      ) : null}
      {files.length > 0 || cloudFiles.length > 0 ? (
        <ul className="uploads-file-list" aria-label="Chosen files">
          {files.map((file, index) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`}>
              <span className="uploads-file-name" title={file.name}>
                {truncateFileName(file.name)}
              </span>
              <span className="uploads-file-size">{formatBytes(file.size)}</span>
              <Button
                variant="secondary"
                aria-label={`Remove ${file.name}`}
                onPress={() => onChange(files.filter((_, i) => i !== index))}
              >
                Remove
              </Button>
            </li>
          ))}
          {cloudFiles.map((picked, index) => (
            <li key={`${picked.provider}-${picked.fileId ?? picked.link}`}>
              <span className="uploads-file-name" title={picked.name}>
                {truncateFileName(picked.name)}
              </span>
              <span className="uploads-file-size">
                {picked.size === undefined ? '' : formatBytes(picked.size)}
              </span>
              <span className="uploads-file-source">{PROVIDER_LABELS[picked.provider]}</span>
              <Button
                variant="secondary"
                aria-label={`Remove ${picked.name}`}
                onPress={() => cloud?.onChange(cloudFiles.filter((_, i) => i !== index))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
