import { site } from '../../../content/site';
import { Island } from '../../../islands/Island';
import { GettingSocial } from '../sections/GettingSocial';

/**
 * SPEC §2 /contact and /social (the same page): an introduction and 'Getting Social'; the contact panel with
 * the form, both offices, phone and e-mail follows in the layout, and '#contact' scrolls to it.
 */
export default function ContactPage() {
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Contact</p>
        <h1>Tell us about your meeting</h1>
        <p className="page__lead">
          Dates, city, the number of people in the room, or just an idea for the opening: send what you have
          and a producer will answer within one business day. For a show that is already on site, call{' '}
          <a href={site.phoneHref}>{site.phone}</a>; the line is staffed around the clock during events.
        </p>
        <p>
          <a href="#contact">Go to the contact form</a>
        </p>
      </header>
      <Island name="getting-social" component={GettingSocial} props={{}} />
    </article>
  );
}
