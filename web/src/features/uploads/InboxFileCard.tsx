/**
 * One file of the staff inbox as a card (#31): name, version, size, status, facts and spec badge (#30),
 * shortened SHA-256 with Copy, received date, a preview (the browser's own player over the Range route
 * when it can play the type, else the poster; images as thumbnails), Download and the review controls.
 */
import {
  formatBytes,
  formatDateTime,
  type InboxFile,
  type InboxFileMedia,
  type UploadFileInfo,
} from '@avp/shared';
import { FileMedia, HashCell, inboxStatus } from './InboxFileParts';
import { InboxReview } from './InboxReview';

/** Whether this browser says it may play the type ('maybe' or 'probably'); false where it cannot tell. */
function canPlay(type: string): boolean {
  if (!type.startsWith('video/') && !type.startsWith('audio/')) return false;
  if (typeof document === 'undefined') return false;
  const player = document.createElement(type.startsWith('audio/') ? 'audio' : 'video');
  return typeof player.canPlayType === 'function' && player.canPlayType(type) !== '';
}

export function FilePreview({ file }: { file: InboxFile }) {
  if (file.previewUrl && file.type.startsWith('image/')) {
    return (
      <img
        className="inbox-preview"
        src={file.posterUrl ?? file.previewUrl}
        alt={`Thumbnail of ${file.name}`}
        loading="lazy"
      />
    );
  }
  if (file.previewUrl && canPlay(file.type)) {
    if (file.type.startsWith('audio/')) {
      return (
        <audio className="inbox-preview" controls preload="metadata" src={file.previewUrl}>
          <track kind="captions" />
        </audio>
      );
    }
    return (
      <video
        className="inbox-preview"
        controls
        preload="metadata"
        src={file.previewUrl}
        poster={file.posterUrl ?? undefined}
        aria-label={`Preview of ${file.name}`}
      >
        <track kind="captions" />
      </video>
    );
  }
  if (file.posterUrl) {
    return (
      <img className="inbox-preview" src={file.posterUrl} alt={`A frame of ${file.name}`} loading="lazy" />
    );
  }
  return null;
}

export interface InboxFileCardProps {
  file: InboxFile;
  /** The same file in the first inbox's shape (its import status and whose reading the facts are). */
  legacy?: UploadFileInfo & InboxFileMedia;
  zone: string;
  onChanged: (file: InboxFile) => void;
}

export function InboxFileCard({ file, legacy, zone, onChanged }: InboxFileCardProps) {
  const media: UploadFileInfo & InboxFileMedia = {
    lastModified: null,
    partSize: file.size,
    partCount: 1,
    ...legacy,
    id: file.id,
    name: file.name,
    size: file.size,
    type: file.type,
    status: file.status,
    sha256: file.sha256,
    facts: file.facts,
    factsText: file.factsText ?? legacy?.factsText,
    check: file.check ?? legacy?.check,
    specApplies: file.specApplies,
  };
  const status = legacy ? inboxStatus(legacy) : file.status === 'complete' ? 'Complete' : 'Uploading';
  return (
    <li className="inbox-card" data-testid="inbox-file" aria-label={file.name}>
      <div className="inbox-card__body">
        <p className="inbox-card__name">
          <span className="inbox-files__filename">{file.name}</span>
          {file.version > 1 ? <span className="inbox-card__version"> · version {file.version}</span> : null}
        </p>
        <FileMedia file={media} />
        <dl className="inbox-card__facts">
          <div>
            <dt>Size</dt>
            <dd>{formatBytes(file.size)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd data-label="Status">{status}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>{file.receivedAt ? formatDateTime(file.receivedAt, zone) : '—'}</dd>
          </div>
          <div>
            <dt>SHA-256</dt>
            <dd>
              <HashCell hash={file.sha256} fileName={file.name} />
            </dd>
          </div>
        </dl>
        {file.previousVersions.length > 0 ? (
          <p className="inbox-card__older">
            Older versions kept:{' '}
            {file.previousVersions.map((old, index) => (
              <span key={old.id}>
                {index > 0 ? ', ' : ''}
                <a
                  href={old.downloadUrl}
                  download
                  aria-label={`Download version ${old.version} of ${file.name}`}
                >
                  version {old.version}
                </a>
              </span>
            ))}
          </p>
        ) : null}
        <InboxReview file={file} onChanged={onChanged} />
        {file.status === 'complete' ? (
          <a
            className="inbox-card__download"
            href={file.downloadUrl}
            download
            aria-label={`Download ${file.name}`}
          >
            Download
          </a>
        ) : null}
      </div>
      <div className="inbox-card__preview">
        <FilePreview file={file} />
      </div>
    </li>
  );
}
