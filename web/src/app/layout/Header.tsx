import { Link, NavLink, useLocation } from 'react-router';
import { Island } from '../../islands/Island';
import { site } from '../../content/site';
import { MobileMenu } from './MobileMenu';
import { NAV } from './nav';
import { SocialLinks } from './SocialLinks';

/** Header with the brand, the navigation (a menu button below 1080 px), and the social icons (SPEC §2). */
export function Header() {
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <Link to="/" className="site-header__brand">
        <span aria-hidden="true" className="site-header__mark">
          N
        </span>
        <span className="site-header__name">
          {site.shortName}
          <span className="visually-hidden">{site.name.slice(site.shortName.length)}, home</span>
        </span>
      </Link>
      <nav aria-label="Main" className="site-header__nav">
        <ul>
          {NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <SocialLinks className="site-header__social" />
      <Island name="menu" component={MobileMenu} props={{ current: pathname }} />
    </header>
  );
}
