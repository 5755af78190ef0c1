/**
 * The web portal's files: browser Files by drag-and-drop or the system picker, many at once, and files
 * from the configured cloud accounts' pickers, all in one list (FileDropZone).
 */
import { formatBytes, type CloudPickerConfig } from '@avp/shared';
import { useState, type ReactNode } from 'react';
import { CloudButtons } from './cloud/CloudButtons';
import { PROVIDER_LABELS, type PickedCloudFile } from './cloud/pickers';
import { FileDropZone, type ChosenFile } from './FileDropZone';

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
  /** More about a picked file, under its row (its media facts). */
  detailsOf?: ((file: File) => ReactNode) | undefined;
}

const samePick = (a: PickedCloudFile, b: PickedCloudFile) =>
  a.provider === b.provider && a.fileId === b.fileId && a.link === b.link;

const fileKey = (file: File) => `file:${file.name}-${file.size}-${file.lastModified}`;
const pickKey = (picked: PickedCloudFile) => `cloud:${picked.provider}-${picked.fileId ?? picked.link}`;

export function FilePicker({ files, onChange, cloud, errorMessage, detailsOf }: FilePickerProps) {
  const [pickError, setPickError] = useState<string | null>(null);
  const cloudFiles = cloud?.files ?? [];
  const items: ChosenFile[] = [
    ...files.map((file) => ({
      key: fileKey(file),
      name: file.name,
      size: formatBytes(file.size),
      details: detailsOf?.(file),
    })),
    ...cloudFiles.map((picked) => ({
      key: pickKey(picked),
      name: picked.name,
      size: picked.size === undefined ? '' : formatBytes(picked.size),
      source: PROVIDER_LABELS[picked.provider],
    })),
  ];
  return (
    <FileDropZone
      items={items}
      onAdd={(list) => {
        // By key, not pair by pair: a pick of 2,000 onto 2,000 would be four million comparisons.
        const known = new Set(files.map(fileKey));
        const added = list.filter((f) => {
          const key = fileKey(f);
          if (known.has(key)) return false;
          known.add(key);
          return true;
        });
        onChange([...files, ...added]);
      }}
      onRemove={(key) => {
        if (key.startsWith('file:')) onChange(files.filter((file) => fileKey(file) !== key));
        else cloud?.onChange(cloudFiles.filter((picked) => pickKey(picked) !== key));
      }}
      errorMessage={errorMessage}
      problem={pickError}
      actions={
        cloud ? (
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
        ) : null
      }
    />
  );
}
