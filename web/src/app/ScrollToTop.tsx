import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * SPEC §2: the page scrolls to the top on each navigation. A URL with a hash is left to the page,
 * which scrolls to its own anchor (for example /contact#contact).
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
