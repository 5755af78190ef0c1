import { Link } from 'react-router';
import { Island } from '../../../islands/Island';
import { ContactFormIsland } from '../contact/ContactFormIsland';

/**
 * SPEC §2 /blog: the footer has no contact panel here. The page offers the newsletter sign-up instead: the
 * contact form's newsletter variant ('blog mode').
 */
export default function BlogPage() {
  return (
    <article className="page page--narrow">
      <header className="page__header">
        <p className="page__eyebrow">Blog</p>
        <h1>Notes from the production desk</h1>
        <p className="page__lead">
          Longer write-ups on what we learn on show site: rigging in historic ballrooms, captioning hybrid
          sessions, and why your keynote should rehearse on the real stage. The first posts are being edited
          now.
        </p>
      </header>
      <p>
        Until they are published, the quickest way to hear from us is the Hot Trends newsletter. Older
        articles from our previous site are <Link to="/coming_soon">being moved here</Link>.
      </p>
      <section className="blog-signup" aria-labelledby="blog-signup-title">
        <h2 id="blog-signup-title">Get new posts by e-mail</h2>
        <Island
          name="contact-form"
          component={ContactFormIsland}
          props={{ variant: 'newsletter', labelledBy: 'blog-signup-title' }}
        />
      </section>
    </article>
  );
}
