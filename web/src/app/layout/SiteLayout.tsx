import { Outlet, useLocation } from 'react-router';
import { usesBareLayout } from '@avp/shared';
import { ContactPanel } from './ContactPanel';
import { Footer } from './Footer';
import { Header } from './Header';

/** Pages without the contact panel in their footer area (SPEC §2: /blog). */
const NO_CONTACT_PANEL = new Set(['/blog']);

/**
 * The marketing frame: header, main content, contact panel and footer. The staff screens and the
 * exhibitor order pages hide all three (SPEC §2 'Layout elements').
 */
export function SiteLayout() {
  const { pathname } = useLocation();
  if (usesBareLayout(pathname)) {
    return (
      <main id="main" className="main main--bare">
        <Outlet />
      </main>
    );
  }
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="main">
        <Outlet />
      </main>
      {NO_CONTACT_PANEL.has(pathname) ? null : <ContactPanel />}
      <Footer />
    </>
  );
}
