import { Link } from 'react-router';
import { site } from '../../content/site';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <p>
        © {year} {site.name}
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
