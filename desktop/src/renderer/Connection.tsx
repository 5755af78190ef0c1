/**
 * While the server does not answer: what waits and when the engine tries next, in words (never a raw
 * error code), with a "Retry now" button. The countdown ticks on screen each second; the status region,
 * always in the page, announces the wait once per try and the server's return, so a screen reader hears
 * each change without a flood.
 */
import { Button } from '@avp/web/ui';
import { useEffect, useState } from 'react';
import type { DesktopApi, EngineSnapshot } from './api';

type Waiting = Extract<EngineSnapshot['connection'], { state: 'waiting' }>;

const filesQueued = (n: number) => `${n} ${n === 1 ? 'file' : 'files'} queued`;

/** "Waiting for the server — 3 files queued, next try in 12 s" (without a countdown when none runs). */
export function waitingLine(connection: Waiting, now: number): string {
  const files = filesQueued(connection.queuedFiles);
  if (connection.nextTryAt === 0) return `Waiting for the server — ${files}; not trying again by itself.`;
  const seconds = Math.max(0, Math.ceil((connection.nextTryAt - now) / 1000));
  return seconds > 0
    ? `Waiting for the server — ${files}, next try in ${seconds} s`
    : `Waiting for the server — ${files}, trying now…`;
}

export function ConnectionBanner({ api, snapshot }: { api: DesktopApi; snapshot: EngineSnapshot | null }) {
  const connection = snapshot?.connection;
  const waiting = connection?.state === 'waiting' ? connection : null;
  // Announced once per try (and once when the server is back), not once per tick.
  const key = waiting ? `${waiting.attempt}|${waiting.queuedFiles}` : 'online';
  const [said, setSaid] = useState({ key: 'online', text: '' });
  if (key !== said.key) {
    setSaid({
      key,
      text: waiting
        ? `Waiting for the server — ${filesQueued(waiting.queuedFiles)}. ${waiting.message}`
        : said.text
          ? 'The server answers again.'
          : '',
    });
  }
  return (
    <>
      <p className="visually-hidden" role="status">
        {said.text}
      </p>
      {waiting ? <WaitingCard api={api} waiting={waiting} /> : null}
    </>
  );
}

function WaitingCard({ api, waiting }: { api: DesktopApi; waiting: Waiting }) {
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="app-card app-waiting" aria-label="Waiting for the server">
      <p className="app-waiting__line" aria-hidden="true" data-testid="waiting-line">
        {waitingLine(waiting, now)}
      </p>
      <p className="app-waiting__why">{waiting.message}</p>
      <Button
        variant="secondary"
        isDisabled={busy}
        onPress={() => {
          setBusy(true);
          void api.retryNow().finally(() => setBusy(false));
        }}
      >
        Retry now
      </Button>
    </section>
  );
}
