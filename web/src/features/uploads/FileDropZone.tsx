/**
 * The upload form's files: a drop zone with the system's file chooser, other ways in beside it (the cloud
 * accounts), and the list of what was chosen, names cut at 24 characters (SPEC §2). What a chosen file is
 * (a browser File, a path on disk, a pick from a cloud account) stays with the caller, which takes the
 * Files dropped or chosen here and hands back the list as it should read. The list draws only the rows on
 * screen (VirtualList): a folder of 2,000 stills is picked in one go (issue #34).
 */
import { truncateFileName } from '@avp/shared';
import { useEffect, useId, useRef, useState, type DragEvent as ReactDragEvent, type ReactNode } from 'react';
import { VirtualList } from '../../components/VirtualList';
import { Button } from '../../ui';
import { FOCUS_WHEN_INVALID } from './UploadFormBase';

/** A row of the list, as it reads. */
export interface ChosenFile {
  /** Unique in the list; handed back by onRemove. */
  key: string;
  name: string;
  /** Shown on hover; the name by default. */
  title?: string | undefined;
  size?: string | undefined;
  /** Where the file comes from (a cloud account). */
  source?: string | undefined;
  /** More about the file, on a line of its own under the row (its media facts, issue #30). */
  details?: ReactNode;
}

export interface FileDropZoneProps {
  items: ChosenFile[];
  /** Files dropped or chosen with the system's chooser (never an empty list). */
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  /** The form's message about the files ('Please Add a File.'). */
  errorMessage?: string | undefined;
  /** Another message of the files part, e.g. a picker's failure. */
  problem?: string | null | undefined;
  /** More ways to add files, beside 'Choose files'. */
  actions?: ReactNode;
  /** Takes drops anywhere on the window, not only on the zone: for a window that is the upload form. */
  dropAnywhere?: boolean | undefined;
  prompt?: string | undefined;
  /** Shown instead of the list while it is empty. */
  emptyText?: string | undefined;
  /**
   * A row's details, asked for only for the rows drawn (instead of each item's `details`): a list of
   * 2,000 files need not make 2,000 details at each render.
   */
  detailsAt?: ((index: number) => ReactNode) | undefined;
  /**
   * 'Choose files' opens the File System Access picker where the browser has one (desktop Chromium),
   * and the <input type=file> chooser elsewhere. Only for a caller that needs a File's bytes, not its
   * path: a File read from a handle has no path on disk (the desktop app locates files by path).
   */
  fileSystemAccess?: boolean | undefined;
}

interface PickerFileHandle {
  name: string;
  getFile(): Promise<File>;
}
type OpenFilePicker = (options: { multiple: boolean }) => Promise<PickerFileHandle[]>;

/** showOpenFilePicker, where the browser has it (desktop Chromium; not Firefox, Safari or phones). */
function openFilePicker(): OpenFilePicker | null {
  const picker = (globalThis as { showOpenFilePicker?: unknown }).showOpenFilePicker;
  return typeof picker === 'function' ? (picker as OpenFilePicker).bind(globalThis) : null;
}

/** How many picked handles are turned into Files at a time, each batch handed on as it is read. */
export const HANDLE_SLICE = 100;

/**
 * The Files of a File System Access pick, HANDLE_SLICE at a time. Why not the <input>: Chromium makes an
 * <input>'s FileList of 2,000 in one task before the page hears of it, a synchronous call to its browser
 * process per file for the MIME type (bench:portal's trace: 2,000 MimeRegistry::GetMimeTypeFromExtension
 * in a task of 0.4-1.3 s on a busy two-core machine, 60-90 ms of it CPU time), then another per file the
 * first time its size is read (Blob::CaptureSnapshot). A handle's getFile()
 * answers a File whose type and size came with it, each in a task of its own. Resolves to the names of
 * the files that could not be read (gone or locked since the pick).
 */
export async function filesOfHandles(
  handles: readonly PickerFileHandle[],
  onSlice: (files: File[]) => void,
): Promise<string[]> {
  const unreadable: string[] = [];
  for (let at = 0; at < handles.length; at += HANDLE_SLICE) {
    const slice = handles.slice(at, at + HANDLE_SLICE);
    const read = await Promise.allSettled(slice.map((handle) => handle.getFile()));
    const files: File[] = [];
    read.forEach((result, i) => {
      if (result.status === 'fulfilled') files.push(result.value);
      else unreadable.push(slice[i]!.name);
    });
    if (files.length > 0) onSlice(files);
  }
  return unreadable;
}

/** not in SPEC: files of a pick that could not be read (deleted or locked after they were chosen). */
export function unreadableText(names: readonly string[]): string {
  return `${names.length === 1 ? 'This file' : 'These files'} could not be read: ${names.join(', ')}.`;
}

/** A row's height before it is drawn: the name, size and Remove on one line, and a line of details. */
const ROW_ESTIMATE_PX = 64;

/** not in SPEC (issue #34): how many files are chosen, above their list (which shows a screenful). */
export function chosenCountText(n: number): string {
  return `${n.toLocaleString('en-US')} files chosen`;
}

function ChosenRow({
  item,
  details,
  onRemove,
}: {
  item: ChosenFile;
  details: ReactNode;
  onRemove: (key: string) => void;
}) {
  return (
    <>
      <span className="uploads-file-name" title={item.title ?? item.name}>
        {truncateFileName(item.name)}
      </span>
      {item.size !== undefined ? <span className="uploads-file-size">{item.size}</span> : null}
      {item.source !== undefined ? <span className="uploads-file-source">{item.source}</span> : null}
      <Button variant="secondary" aria-label={`Remove ${item.name}`} onPress={() => onRemove(item.key)}>
        Remove
      </Button>
      {details !== undefined ? <div className="uploads-file-details">{details}</div> : null}
    </>
  );
}

export function FileDropZone({
  items,
  onAdd,
  onRemove,
  errorMessage,
  problem,
  actions,
  dropAnywhere = false,
  prompt = 'Drag and drop files here, or',
  emptyText,
  detailsAt,
  fileSystemAccess = false,
}: FileDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const errorId = useId();
  const problemId = useId();
  const unreadableId = useId();
  // A listener on the window lives as long as the zone; it calls the latest onAdd through this.
  const latestAdd = useRef(onAdd);
  useEffect(() => {
    latestAdd.current = onAdd;
  });

  const add = (files: File[]) => {
    if (files.length > 0) onAdd(files);
  };

  // The same button either way, so keyboard and screen-reader users choose files as before.
  const choose = () => {
    const picker = fileSystemAccess ? openFilePicker() : null;
    if (!picker) {
      input.current?.click();
      return;
    }
    setUnreadable([]);
    picker({ multiple: true }).then(
      async (handles) => {
        const missed = await filesOfHandles(handles, (files) => latestAdd.current(files));
        setUnreadable(missed);
      },
      (error: unknown) => {
        // Dismissed: nothing. Refused (a page in a frame, a policy): the browser's own chooser instead.
        if ((error as { name?: string }).name !== 'AbortError') input.current?.click();
      },
    );
  };

  useEffect(() => {
    if (!dropAnywhere) return undefined;
    // A file dropped beside the zone is added rather than opened by the browser engine.
    const onDragOver = (event: DragEvent) => {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setOver(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (event.relatedTarget === null) setOver(false);
    };
    const onDrop = (event: DragEvent) => {
      event.preventDefault();
      setOver(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length > 0) latestAdd.current(files);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [dropAnywhere]);

  const zoneDrops = dropAnywhere
    ? {}
    : {
        onDragOver: (e: ReactDragEvent) => {
          e.preventDefault();
          setOver(true);
        },
        onDragLeave: () => setOver(false),
        onDrop: (e: ReactDragEvent) => {
          e.preventDefault();
          setOver(false);
          add([...e.dataTransfer.files]);
        },
      };
  const describedBy = [
    errorMessage ? errorId : null,
    problem ? problemId : null,
    unreadable.length > 0 ? unreadableId : null,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="uploads-files">
      <div
        className={`uploads-drop${over ? ' uploads-drop--over' : ''}${errorMessage ? ' uploads-drop--error' : ''}`}
        data-testid="upload-dropzone"
        {...zoneDrops}
        aria-describedby={describedBy || undefined}
      >
        <p>{prompt}</p>
        <Button
          variant="secondary"
          onPress={choose}
          {...(errorMessage ? { [FOCUS_WHEN_INVALID]: true } : {})}
        >
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
            add([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = '';
          }}
        />
        {actions}
      </div>
      {problem ? (
        <p id={problemId} className="kit-error uploads-error" role="alert">
          {problem}
        </p>
      ) : null}
      {unreadable.length > 0 ? (
        <p id={unreadableId} className="kit-error uploads-error" role="alert">
          {unreadableText(unreadable)}
        </p>
      ) : null}
      {errorMessage ? (
        <p id={errorId} className="kit-error uploads-error" role="alert">
          {errorMessage}
        </p>
      ) : null}
      {items.length > 0 ? (
        <>
          {items.length > 1 ? (
            <p className="uploads-count" data-testid="chosen-count">
              {chosenCountText(items.length)}
            </p>
          ) : null}
          <VirtualList
            className="uploads-file-list"
            label="Chosen files"
            count={items.length}
            estimateHeight={ROW_ESTIMATE_PX}
            itemKey={(i) => items[i]!.key}
            renderItem={(i) => (
              <ChosenRow
                item={items[i]!}
                details={detailsAt ? detailsAt(i) : items[i]!.details}
                onRemove={onRemove}
              />
            )}
          />
        </>
      ) : emptyText ? (
        <p className="uploads-empty">{emptyText}</p>
      ) : null}
    </div>
  );
}
