import { Link } from 'react-router';
import { site } from '../../../content/site';

/** SPEC §2 'Coming Soon': the page for parts of the site not published yet. */
export default function ComingSoonPage() {
  return (
    <article className="page page--narrow">
      <h1>Coming soon</h1>
      <p>
        We are still building this part of the site. In the meantime our producers are happy to answer by
        phone at <a href={site.phoneHref}>{site.phone}</a> or by e-mail at{' '}
        <a href={`mailto:${site.email}`}>{site.email}</a>.
      </p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </article>
  );
}
