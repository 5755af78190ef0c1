import { useEffect, useState } from 'react';

/** Minutes left at which the time is said aloud; the visible clock is not read out each second. */
const ANNOUNCE_AT_MINUTES = [10, 5, 2, 1];

export const HOLD_ENDED =
  'Your hold has ended and these items are back on sale. Pay now holds them again if they are still available.';

export function holdNote(until: string): string {
  return `If the time runs out before you pay, the items go back on sale (held until ${until}).`;
}

/** 'mm:ss' of a number of seconds. */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function minutesLeftText(minutes: number): string {
  return `Less than ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left to pay before your hold ends.`;
}

function secondsUntil(expiresAt: string): number {
  return (Date.parse(expiresAt) - Date.now()) / 1000;
}

/**
 * The time left on the order's hold, counting down each second on screen. Screen readers hear it when the
 * page shows it (the timer's text), at 10, 5, 2 and 1 minutes left, and when it ends; never every second.
 */
export function HoldTimer({ expiresAt, onEnded }: { expiresAt: string; onEnded?: () => void }) {
  // The parent keys this by expiresAt, so a new hold starts a new count.
  const [seconds, setSeconds] = useState(() => secondsUntil(expiresAt));
  const ended = seconds <= 0;

  useEffect(() => {
    if (ended) return;
    const tick = window.setInterval(() => setSeconds(secondsUntil(expiresAt)), 1000);
    return () => window.clearInterval(tick);
  }, [expiresAt, ended]);

  const minutesLeft = Math.ceil(seconds / 60);
  // The live region's text changes only when a mark is passed, so it speaks only then.
  const passed = [...ANNOUNCE_AT_MINUTES].reverse().find((m) => seconds <= m * 60);
  const announced = ended ? HOLD_ENDED : passed !== undefined ? minutesLeftText(passed) : '';

  useEffect(() => {
    if (ended) onEnded?.();
    // Once per end, whichever callback the page passes now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended]);

  const until = new Date(expiresAt).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return (
    <div className={`store-hold${ended ? ' store-hold--ended' : ''}`}>
      <p id="hold-title" className="store-hold__title">
        {ended ? 'Hold ended' : 'Held for you'}
        {ended ? null : (
          <>
            {' '}
            <span
              role="timer"
              aria-label={`${Math.max(1, minutesLeft)} minutes left`}
              className="store-hold__clock"
            >
              {clockText(seconds)}
            </span>
          </>
        )}
      </p>
      <p className="store-hold__note">{ended ? HOLD_ENDED : holdNote(until)}</p>
      {/* Only this region speaks, and only at the moments above. */}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announced}
      </p>
    </div>
  );
}
