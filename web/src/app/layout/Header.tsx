import { Link, NavLink } from 'react-router';
import { site } from '../../content/site';

const NAV = [
  { to: '/creative_services', label: 'Creative Services' },
  { to: '/event_production', label: 'Event Production' },
  { to: '/online_meetings', label: 'Online Meetings' },
  { to: '/hottrends', label: 'Hot Trends' },
  { to: '/contact', label: 'Contact' },
] as const;

export function Header() {
  return (
    <header className="site-header">
      <Link to="/" className="site-header__brand" aria-label={`${site.name}, home`}>
        <span aria-hidden="true" className="site-header__mark">
          N
        </span>
        <span className="site-header__name">{site.shortName}</span>
      </Link>
      <nav aria-label="Main" className="site-header__nav">
        <ul>
          {NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <ul className="site-header__social" aria-label="Social media">
        {site.social.map((s) => (
          <li key={s.name}>
            <a href={s.href} rel="noopener noreferrer" target="_blank">
              {s.name}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </header>
  );
}
