/**
 * The desktop uploader's window: sign in, then a new upload, the queue, the history and the settings.
 * Everything goes through window.avUpload; no URL changes (the main process trusts only its own page's
 * exact address), so the sections are React state.
 */
import { formatSpeed, formatTimeLeft } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { useEffect, useRef, useState } from 'react';
import { desktopApi, type DesktopApi, type EngineSnapshot, type SignedIn } from './api';
import { ConnectionBanner } from './Connection';
import { History } from './History';
import { NewUpload } from './NewUpload';
import { Pull } from './Pull';
import { Queue } from './Queue';
import { Settings } from './Settings';
import { SignIn } from './SignIn';
import { useSnapshot } from './useSnapshot';
import { WatchFolders } from './WatchFolders';

export const NOT_IN_APP =
  'This page is the AV Uploader app’s window: open it from the app (or through the development bridge).';

export function App() {
  const api = desktopApi();
  return (
    <>
      <header className="app-bar">
        <h1>AV Uploader</h1>
      </header>
      <main className="app-main">{api ? <Root api={api} /> : <p role="alert">{NOT_IN_APP}</p>}</main>
    </>
  );
}

function Root({ api }: { api: DesktopApi }) {
  const [session, setSession] = useState<SignedIn | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .session()
      .then((current) => live && setSession(current))
      .catch(() => live && setSession(null));
    return () => {
      live = false;
    };
  }, [api]);

  if (session === undefined) {
    return (
      <p className="app-loading" role="status">
        Loading…
      </p>
    );
  }
  if (session === null) {
    return (
      <SignIn
        api={api}
        notice={notice}
        onSignedIn={(next) => {
          setNotice(null);
          setSession(next);
        }}
      />
    );
  }
  return (
    <Workspace
      api={api}
      session={session}
      onSignedOut={() => {
        setNotice('You are signed out. Uploads in the queue are paused until you sign in again.');
        setSession(null);
      }}
    />
  );
}

const SECTIONS = [
  { id: 'upload', title: 'New upload' },
  { id: 'queue', title: 'Queue' },
  { id: 'watch', title: 'Watch folders' },
  { id: 'history', title: 'History' },
  // Staff with the Media role only (issue #31): shown once the server has said the account is one.
  // The heading drops the menu's ellipsis, which a screen reader would read out.
  {
    id: 'pull',
    title: 'Pull this event to a folder…',
    heading: 'Pull an event to a folder',
    staffOnly: true,
  },
  { id: 'settings', title: 'Settings' },
] as const;
type Section = (typeof SECTIONS)[number]['id'];

function Workspace({
  api,
  session,
  onSignedOut,
}: {
  api: DesktopApi;
  session: SignedIn;
  onSignedOut: () => void;
}) {
  const { snapshot, refresh } = useSnapshot(api);
  const [section, setSection] = useState<Section>('upload');
  const [queued, setQueued] = useState('');
  const [signingOut, setSigningOut] = useState(false);
  // Whether this session's account may pull events; staff is null while the server is asked.
  const [access, setAccess] = useState<{ session: SignedIn; staff: boolean } | null>(null);
  const staff = access?.session === session ? access.staff : null;
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // A change of section moves focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [section]);

  // Whether the account may pull events: asked of the server (its session's role), never assumed.
  useEffect(() => {
    let live = true;
    api.pullEvents().then(
      (result) => live && setAccess({ session, staff: result.access === 'staff' }),
      () => live && setAccess({ session, staff: false }),
    );
    return () => {
      live = false;
    };
  }, [api, session]);
  const shown = SECTIONS.filter((s) => !('staffOnly' in s) || staff);

  const go = (next: Section) => {
    moved.current = true;
    if (next !== 'queue') setQueued('');
    setSection(next);
  };

  async function signOut() {
    setSigningOut(true);
    try {
      await api.logout();
    } finally {
      setSigningOut(false);
      onSignedOut();
    }
  }

  const current = SECTIONS.find((s) => s.id === section)!;
  const title = 'heading' in current ? current.heading : current.title;
  return (
    <div className="app-workspace">
      <div className="app-account">
        <p>
          Signed in as <strong>{session.email}</strong> <span className="app-server">({session.server})</span>
        </p>
        <Button variant="secondary" dense isDisabled={signingOut} onPress={() => void signOut()}>
          Sign out
        </Button>
      </div>
      <OverallStatus snapshot={snapshot} />
      <ConnectionBanner api={api} snapshot={snapshot} />
      <nav aria-label="Sections" className="app-nav" aria-busy={staff === null ? true : undefined}>
        <ul>
          {shown.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="app-nav__item"
                aria-current={section === s.id ? 'page' : undefined}
                onClick={() => go(s.id)}
              >
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section className="app-section" aria-labelledby="app-section-title">
        <h2 id="app-section-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        {section === 'upload' ? (
          <NewUpload
            api={api}
            onQueued={(count) => {
              refresh();
              go('queue');
              setQueued(`Added to the queue: ${count} ${count === 1 ? 'item' : 'items'}.`);
            }}
          />
        ) : null}
        {section === 'queue' ? (
          <>
            <p className="app-status" role="status">
              {queued}
            </p>
            <Queue api={api} snapshot={snapshot} onAction={refresh} />
          </>
        ) : null}
        {section === 'watch' ? <WatchFolders api={api} snapshot={snapshot} onAction={refresh} /> : null}
        {section === 'history' ? <History api={api} snapshot={snapshot} /> : null}
        {section === 'pull' && staff ? <Pull api={api} snapshot={snapshot} /> : null}
        {section === 'settings' ? <Settings api={api} /> : null}
      </section>
    </div>
  );
}

/**
 * The queue in one line, always in view. The visible line follows every update; what is announced
 * (aria-live) changes only with the state or every 10 %, so a screen reader is not flooded.
 */
function OverallStatus({ snapshot }: { snapshot: EngineSnapshot | null }) {
  if (!snapshot) return null;
  const { overall, jobs, active } = snapshot;
  const files = jobs.flatMap((j) => j.files);
  const failed =
    files.filter((f) => f.state === 'failed').length +
    jobs.filter((j) => j.state === 'failed' && j.files.every((f) => f.state !== 'failed')).length;
  let visible: string;
  let announced: string;
  if (jobs.length === 0) {
    visible = announced = 'Nothing to upload.';
  } else if (snapshot.connection.state === 'waiting') {
    // The banner below says what waits and when it is tried; "Uploading: 0%" would not be true.
    visible = `Waiting for the server at ${overall.percent}%.`;
    announced = '';
  } else if (active) {
    const left = formatTimeLeft(overall.secondsLeft);
    visible = `Uploading: ${overall.percent}% · ${formatSpeed(overall.bytesPerSecond)}${left ? ` · ${left}` : ''}`;
    announced = `Uploading: ${Math.floor(overall.percent / 10) * 10}%`;
  } else if (failed > 0) {
    visible = announced = `${failed} ${failed === 1 ? 'upload has' : 'uploads have'} stopped: see the queue.`;
  } else {
    visible = announced = `Paused at ${overall.percent}%.`;
  }
  return (
    <div className="app-overall-status" data-testid="overall-status">
      <p aria-hidden="true">{visible}</p>
      <p className="visually-hidden" role="status">
        {announced}
      </p>
    </div>
  );
}
