/**
 * "Send a new version" of a file staff sent back (#31): the client picks a file, its facts are read as in the
 * upload form (the same worker and facts line), and it is uploaded through the shared upload client as a
 * new version of the original (`replaces`), with progress. The server checks the facts against the event's
 * spec again and refuses a file the spec blocks, with its reasons.
 */
import {
  FileUpload,
  UploadClient,
  type ClientFile,
  type ProgressSnapshot,
  type TransportRequest,
  type UploadTransport,
} from '@avp/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui';
import { browserHasher } from './hashing';
import { readFileFacts, useFilesFacts } from './media-facts';
import { MediaFactsLine } from './MediaFactsLine';
import { fetchTransport, fileSource, spawnHashWorker } from './transport';

/** The registration of the file names the one it replaces; every other call goes out as it is. */
function replacingTransport(replaces: string): UploadTransport {
  return (request: TransportRequest) => {
    const registers =
      request.method === 'POST' && /\/submissions\/[^/]+\/files$/.test(request.path) && request.json;
    return fetchTransport(
      registers ? { ...request, json: { ...(request.json as Record<string, unknown>), replaces } } : request,
    );
  };
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'sending'; progress: ProgressSnapshot | null }
  | { kind: 'sent' }
  | { kind: 'failed'; message: string };

export interface ClientNewVersionProps {
  submissionId: string;
  file: ClientFile;
  /** After the new version arrived whole. */
  onSent: () => void;
}

export function ClientNewVersion({ submissionId, file, onSent }: ClientNewVersionProps) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const inputId = useId();
  const upload = useRef<FileUpload | null>(null);
  const chosen = picked ? [picked] : [];
  const facts = useFilesFacts(chosen);

  useEffect(
    () => () => {
      void upload.current?.remove();
    },
    [],
  );

  async function send() {
    if (!picked) return;
    setPhase({ kind: 'sending', progress: null });
    const read = await readFileFacts(picked);
    const client = new UploadClient({
      transport: replacingTransport(file.id),
      createHasher: browserHasher(typeof Worker === 'undefined' ? null : spawnHashWorker),
    });
    const job = new FileUpload(client, submissionId, { ...fileSource(picked), facts: read.facts });
    upload.current = job;
    job.onChange((u) => setPhase({ kind: 'sending', progress: u.progress() }));
    job.start();
    const outcome = await job.settled();
    upload.current = null;
    if (outcome.state === 'complete') {
      setPhase({ kind: 'sent' });
      setPicked(null);
      setOpen(false);
      onSent();
    } else if (outcome.state === 'failed') {
      setPhase({ kind: 'failed', message: outcome.error.message });
    } else {
      setPhase({ kind: 'idle' });
    }
  }

  if (!open) {
    return (
      <div className="client-version">
        <Button
          variant="secondary"
          dense
          onPress={() => {
            setOpen(true);
            setPhase({ kind: 'idle' });
          }}
          aria-label={`Send a new version of ${file.name}`}
        >
          Send a new version
        </Button>
        {phase.kind === 'sent' ? (
          <p role="status" className="client-version__done">
            The new version of {file.name} was received.
          </p>
        ) : null}
      </div>
    );
  }

  const sending = phase.kind === 'sending';
  const percent = phase.kind === 'sending' ? (phase.progress?.percent ?? 0) : 0;
  return (
    <div className="client-version client-version--open">
      <label htmlFor={inputId}>New version of {file.name}</label>
      <input
        id={inputId}
        type="file"
        disabled={sending}
        onChange={(event) => {
          setPicked(event.target.files?.[0] ?? null);
          setPhase({ kind: 'idle' });
        }}
      />
      {picked ? (
        <div className="client-version__file">
          <p className="client-version__name">{picked.name}</p>
          <MediaFactsLine state={facts.get(picked)} applied={null} />
        </div>
      ) : null}
      {sending ? (
        <div className="client-version__progress">
          <progress max={100} value={percent} aria-label={`Sending the new version of ${file.name}`} />
          <span aria-live="polite">{percent}%</span>
        </div>
      ) : null}
      {phase.kind === 'failed' ? (
        <p className="kit-error" role="alert">
          {phase.message}
        </p>
      ) : null}
      <div className="client-version__actions">
        <Button
          dense
          isDisabled={!picked || sending}
          onPress={() => void send()}
          aria-label={`Upload the new version of ${file.name}`}
        >
          Upload
        </Button>
        <Button
          variant="secondary"
          dense
          onPress={() => {
            void upload.current?.remove();
            upload.current = null;
            setPicked(null);
            setOpen(false);
            setPhase({ kind: 'idle' });
          }}
          aria-label={`Cancel the new version of ${file.name}`}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}
