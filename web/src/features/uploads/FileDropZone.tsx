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
}: FileDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const errorId = useId();
  const problemId = useId();
  // A listener on the window lives as long as the zone; it calls the latest onAdd through this.
  const latestAdd = useRef(onAdd);
  useEffect(() => {
    latestAdd.current = onAdd;
  });

  const add = (files: File[]) => {
    if (files.length > 0) onAdd(files);
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
  const describedBy = [errorMessage ? errorId : null, problem ? problemId : null].filter(Boolean).join(' ');

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
          onPress={() => input.current?.click()}
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
