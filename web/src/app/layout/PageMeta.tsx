import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { canonicalUrl, documentTitle, pageMeta } from '../../content/pages';

function setMeta(selector: string, attribute: 'content' | 'href', value: string | null) {
  const element = document.head.querySelector(selector);
  if (!element) return;
  if (value === null) element.removeAttribute(attribute);
  else element.setAttribute(attribute, value);
}

/** The address the prerendered canonical link names (the server's PUBLIC_URL), else this page's origin. */
function siteOrigin(): string {
  const canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  const origin = canonical?.href ? URL.parse(canonical.href)?.origin : undefined;
  return origin ?? window.location.origin;
}

/**
 * Keeps the head in step with client-side navigation: title, description, canonical URL, robots and the
 * Open Graph tags of content/pages.ts, the same values the build prerendered into each page. Pages not in
 * that table (the portal, the store) set their own title with useDocumentTitle.
 */
export function PageMeta() {
  const { pathname } = useLocation();
  useEffect(() => {
    const meta = pageMeta(pathname);
    if (!meta) return;
    const title = documentTitle(meta);
    const url = canonicalUrl(meta, siteOrigin());
    document.title = title;
    setMeta('meta[name="description"]', 'content', meta.description);
    setMeta('meta[name="robots"]', 'content', meta.indexable ? 'index, follow' : 'noindex, follow');
    setMeta('link[rel="canonical"]', 'href', url);
    setMeta('meta[property="og:title"]', 'content', title);
    setMeta('meta[property="og:description"]', 'content', meta.description);
    setMeta('meta[property="og:url"]', 'content', url);
  }, [pathname]);
  return null;
}
