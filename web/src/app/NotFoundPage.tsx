import { Link } from 'react-router';
import { messages } from '@avp/shared';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{messages.pageNotFound}</h1>
      <p>
        The page may have moved. <Link to="/">Go to the home page</Link>.
      </p>
    </section>
  );
}
