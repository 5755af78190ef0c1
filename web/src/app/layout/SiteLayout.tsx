import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { usesBareLayout } from '@avp/shared';
import { ContactPanel } from './ContactPanel';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageMeta } from './PageMeta';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/** Pages without the contact panel in their footer area (SPEC §2: /blog). */
const NO_CONTACT_PANEL = new Set(['/blog']);

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * The marketing frame: header, main content, contact panel and footer. The staff screens and the
 * exhibitor order pages hide all three (SPEC §2 'Layout elements').
 */
export function SiteLayout() {
  const { pathname } = useLocation();
  const path = normalise(pathname);
  if (usesBareLayout(pathname)) {
    return (
      <main id="main" className="main main--bare">
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
    );
  }
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <PageMeta />
      <Header />
      <main id="main" className="main" tabIndex={-1}>
        <RouteErrorBoundary resetKey={path}>
          <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      {NO_CONTACT_PANEL.has(path) ? null : <ContactPanel />}
      <Footer />
    </>
  );
}
