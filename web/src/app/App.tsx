import { Route, Routes } from 'react-router';
import { HomePage } from '../features/marketing';
import { SiteLayout } from './layout/SiteLayout';
import { NotFoundPage } from './NotFoundPage';
import { ScrollToTop } from './ScrollToTop';

/** The route table. Server-side, `isKnownRoute` in shared/routes.ts decides 200 or 404 for the same paths. */
export function App() {
  return (
    <>
      <ScrollToTop />
      <Routes>
        <Route element={<SiteLayout />}>
          <Route index element={<HomePage />} />
          <Route path="home" element={<HomePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </>
  );
}
