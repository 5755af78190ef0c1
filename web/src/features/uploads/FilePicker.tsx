/**
 * The web portal's files: browser Files by drag-and-drop or the system picker, many at once, and files
 * from the configured cloud accounts' pickers, all in one list (FileDropZone).
 */
import { formatBytes, type CloudPickerConfig } from '@avp/shared';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CloudButtons } from './cloud/CloudButtons';
import { PROVIDER_LABELS, type PickedCloudFile } from './cloud/pickers';
import { nextTask } from './coalesce';
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

const NO_CLOUD_FILES: PickedCloudFile[] = [];

const samePick = (a: PickedCloudFile, b: PickedCloudFile) =>
  a.provider === b.provider && a.fileId === b.fileId && a.link === b.link;

/**
 * A File's row as it reads, made once per File: the form renders the list again as each file's facts
 * come in. Chromium asks its browser process for a picked File's size the first time it is read (a
 * synchronous call: about half a millisecond each on a busy two-core machine, a second for 2,000 files).
 */
const rows = new WeakMap<File, { key: string; name: string; size: string }>();
function rowOf(file: File): { key: string; name: string; size: string } {
  let row = rows.get(file);
  if (!row) {
    row = {
      key: `file:${file.name}-${file.size}-${file.lastModified}`,
      name: file.name,
      size: formatBytes(file.size),
    };
    rows.set(file, row);
  }
  return row;
}
const fileKey = (file: File) => rowOf(file).key;

/**
 * A pick of 2,000 is read in slices, the page drawing between them, instead of in one task of a second
 * (issue #34: no main-thread task over 50 ms): each slice takes files for ADD_SLICE_MS, and at most
 * ADD_SLICE of them (a fast machine still shows a growing list rather than waiting for a big slice).
 */
export const ADD_SLICE = 200;
const ADD_SLICE_MS = 10;
const pickKey = (picked: PickedCloudFile) => `cloud:${picked.provider}-${picked.fileId ?? picked.link}`;

/** The next slice of a pick from `from`: the files not in `current` yet, and where the slice ended. */
function takeSlice(list: File[], from: number, current: File[]): { added: File[]; at: number } {
  // By key, not pair by pair: a pick of 2,000 onto 2,000 would be four million comparisons.
  const known = new Set(current.map(fileKey));
  const added: File[] = [];
  const started = performance.now();
  let at = from;
  while (
    at < list.length &&
    at - from < ADD_SLICE &&
    (at === from || performance.now() - started < ADD_SLICE_MS)
  ) {
    const file = list[at++]!;
    const key = fileKey(file);
    if (known.has(key)) continue;
    known.add(key);
    added.push(file);
  }
  return { added, at };
}

export function FilePicker({ files, onChange, cloud, errorMessage, detailsOf }: FilePickerProps) {
  const [pickError, setPickError] = useState<string | null>(null);
  // The list as last handed on: the truth while picks are taken in, since a render may still show a list
  // from before the last slice. A list the caller hands back is taken as the truth only if it is not one
  // of ours coming back late: one render's effect can run after the next slice was handed on (slices of
  // two picks, or of a File System Access pick read a hundred at a time, lost files that way).
  const latest = useRef({ files, onChange, handedOn: new WeakSet<File[]>() });
  useEffect(() => {
    latest.current.onChange = onChange;
    if (!latest.current.handedOn.has(files)) latest.current.files = files;
  });
  const handOn = (next: File[]) => {
    latest.current.files = next;
    latest.current.handedOn.add(next);
    latest.current.onChange(next);
  };
  const add = (list: File[], from = 0) => {
    const state = latest.current;
    const { added, at } = takeSlice(list, from, state.files);
    if (added.length > 0) handOn([...state.files, ...added]);
    if (at < list.length) nextTask(() => add(list, at));
  };
  const cloudFiles = cloud?.files ?? NO_CLOUD_FILES;
  // The rows as made once per File, for a new list only (a render for the files' facts reuses them);
  // their details are made for the rows drawn only.
  const items: ChosenFile[] = useMemo(
    () => [
      ...files.map(rowOf),
      ...cloudFiles.map((picked) => ({
        key: pickKey(picked),
        name: picked.name,
        size: picked.size === undefined ? '' : formatBytes(picked.size),
        source: PROVIDER_LABELS[picked.provider],
      })),
    ],
    [files, cloudFiles],
  );
  return (
    <FileDropZone
      items={items}
      detailsAt={detailsOf ? (i) => (i < files.length ? detailsOf(files[i]!) : undefined) : undefined}
      onAdd={(list) => add(list)}
      fileSystemAccess
      onRemove={(key) => {
        if (key.startsWith('file:')) handOn(latest.current.files.filter((file) => fileKey(file) !== key));
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
