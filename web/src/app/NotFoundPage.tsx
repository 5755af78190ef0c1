import { Link } from 'react-router';
import { PAGE_NOT_FOUND } from '@avp/shared';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{PAGE_NOT_FOUND}</h1>
      <p>
        The page may have moved. <Link to="/">Go to the home page</Link>.
      </p>
    </section>
  );
}
