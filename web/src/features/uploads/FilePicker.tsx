/** Files by drag-and-drop or the system picker, many at once; names cut at 24 characters (SPEC §2). */
import { formatBytes, truncateFileName } from '@avp/shared';
import { useId, useRef, useState } from 'react';
import { Button } from '../../ui';

export interface FilePickerProps {
  files: File[];
  onChange: (files: File[]) => void;
  errorMessage?: string | undefined;
}

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

export function FilePicker({ files, onChange, errorMessage }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const errorId = useId();
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
      </div>
      {errorMessage ? (
        <p id={errorId} className="kit-error uploads-error" role="alert">
          {errorMessage}
        </p>
      ) : null}
      {files.length > 0 ? (
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
        </ul>
      ) : null}
    </div>
  );
}
