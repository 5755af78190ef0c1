import { site } from '../../content/site';

/** The contact panel with both offices, phone and e-mail; '#contact' anchors here (SPEC §2). */
export function ContactPanel() {
  return (
    <section id="contact" className="contact-panel" aria-labelledby="contact-panel-title">
      <h2 id="contact-panel-title">Contact us</h2>
      <div className="contact-panel__offices">
        {site.offices.map((office) => (
          <address key={office.name} className="contact-panel__office">
            <strong>{office.name}</strong>
            <br />
            {office.street}
            <br />
            {office.city}, {office.region} {office.postalCode}
          </address>
        ))}
        <p className="contact-panel__direct">
          <a href={site.phoneHref}>{site.phone}</a>
          <br />
          <a href={`mailto:${site.email}`}>{site.email}</a>
        </p>
      </div>
    </section>
  );
}
