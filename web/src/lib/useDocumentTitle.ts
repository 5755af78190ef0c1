import { useEffect } from 'react';
import { site } from '../content/site';

/** Sets the tab title as '{page} | {company}', or the company alone for the home page. */
export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = page ? `${page} | ${site.name}` : site.name;
  }, [page]);
}
