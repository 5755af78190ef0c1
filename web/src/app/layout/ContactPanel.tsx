import { site } from '../../content/site';
import { ContactFormSlot } from '../../features/marketing';
import { Island } from '../../islands/Island';

/**
 * The contact panel (SPEC §2): both offices, phone and e-mail, and the contact form; '#contact' anchors here.
 * The form's code (react-hook-form, zod, the widget kit) is fetched when the panel comes near the screen, so
 * it never weighs on a page's first load; '#contact' brings the panel on screen, and the form with it.
 */
export function ContactPanel() {
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
        <Island name="contact-slot" component={ContactFormSlot} props={{}} />
      </div>
    </section>
  );
}
