import { Suspense, useEffect, useRef, useState } from 'react';
import { site } from '../../../content/site';
import { LazyContactForm } from './lazy';

/**
 * The contact panel's live part (app/layout/ContactPanel.tsx; an island on marketing pages): the form, fetched
 * as the panel nears the screen.
 */
export function ContactFormSlot() {
  const [showForm, setShowForm] = useState(false);
  const slot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (showForm || !slot.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setShowForm(true);
      },
      { rootMargin: '300px 0px' },
    );
    observer.observe(slot.current);
    return () => observer.disconnect();
  }, [showForm]);

  return (
    <div className="contact-panel__form" ref={slot}>
      <h3 id="contact-form-title">Send us a message</h3>
      {showForm ? (
        <Suspense fallback={<p className="contact-panel__loading">Loading the form…</p>}>
          <LazyContactForm labelledBy="contact-form-title" />
        </Suspense>
      ) : (
        <p className="contact-panel__loading">
          The form appears here as you scroll. You can also write to us at{' '}
          <a href={`mailto:${site.email}`}>{site.email}</a>.
        </p>
      )}
    </div>
  );
}
