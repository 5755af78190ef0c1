import { startTransition, Suspense, useState } from 'react';
import { LazyNewsletterDialog as NewsletterDialog } from '../contact/lazy';

/** The Hot Trends sign-up button and the dialog it opens (an island of /hottrends). */
export function HotTrendsSignup() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button-link"
        aria-haspopup="dialog"
        onPointerEnter={() => void NewsletterDialog.preload()}
        onFocus={() => void NewsletterDialog.preload()}
        onClick={() => startTransition(() => setOpen(true))}
      >
        Sign up for Hot Trends
      </button>
      {open ? (
        <Suspense fallback={null}>
          <NewsletterDialog isOpen onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
