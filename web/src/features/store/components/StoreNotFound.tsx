import { PAGE_NOT_FOUND } from '@avp/shared';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';

/** The site's 404 page (app/NotFoundPage), for a store id that names no store; the server answers 404 too. */
export function StoreNotFound() {
  useDocumentTitle('Page not found');
  return (
    <section className="not-found" aria-labelledby="store-not-found-title">
      <h1 id="store-not-found-title">{PAGE_NOT_FOUND}</h1>
      <p>
        The page may have moved. <Link to="/exhibitor_order">Find your event&apos;s store</Link> or{' '}
        <Link to="/">go to the home page</Link>.
      </p>
    </section>
  );
}
