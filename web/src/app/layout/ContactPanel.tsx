import { Suspense, useEffect, useRef, useState } from 'react';
import { site } from '../../content/site';
import { LazyContactForm } from '../../features/marketing';

/**
 * The contact panel (SPEC §2): both offices, phone and e-mail, and the contact form; '#contact' anchors here.
 * The form's code (react-hook-form, zod, the widget kit) is fetched when the panel comes near the screen, so
 * it never weighs on a page's first load; '#contact' brings the panel on screen, and the form with it.
 */
export function ContactPanel() {
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
    <section id="contact" className="contact-panel" aria-labelledby="contact-panel-title" tabIndex={-1}>
      <div className="contact-panel__inner">
        <div className="contact-panel__details">
          <h2 id="contact-panel-title">Contact us</h2>
          <p className="contact-panel__direct">
            <a href={site.phoneHref}>{site.phone}</a>
            <br />
            <a href={`mailto:${site.email}`}>{site.email}</a>
          </p>
          <div className="contact-panel__offices">
            {site.offices.map((office) => (
              <address key={office.name} className="contact-panel__office">
                <strong>{office.label}</strong>
                <br />
                {office.street}
                <br />
                {office.city}, {office.region} {office.postalCode}
                <br />
                <a href={`tel:${office.phoneE164.replace(/-/g, '')}`}>{office.phone}</a>
              </address>
            ))}
          </div>
        </div>
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
      </div>
    </section>
  );
}
