import { Link } from 'react-router';
import { site } from '../../content/site';

/** SPEC §1, §2: the footer shows the current year and links only to the external admin site and the privacy policy. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <p>
        ©{' '}
        {/* The page may have been prerendered in an earlier year: the browser's year wins without a warning
            (on a marketing page, web/src/marketing-entry.tsx writes it into every data-current-year). */}
        <span data-current-year="" suppressHydrationWarning>
          {year}
        </span>{' '}
        {site.name}
      </p>
      <ul className="site-footer__links">
        <li>
          <a href={site.externalAdminUrl} rel="noopener noreferrer">
            Admin
          </a>
        </li>
        <li>
          <Link to="/privacy">Privacy Policy</Link>
        </li>
      </ul>
    </footer>
  );
}
