/**
 * The public pages (SPEC §2 'Public pages'), each code-split: the first load of a page brings React, the
 * router, the layout and that page only. App.tsx mounts these inside the site layout.
 */
import { Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import './marketing.css';

const M = 'src/features/marketing/pages';

export const HomePage = lazyModule(`${M}/HomePage.tsx`, () => import('./pages/HomePage'));
export const CreativeServicesPage = lazyModule(
  `${M}/CreativeServicesPage.tsx`,
  () => import('./pages/CreativeServicesPage'),
);
export const EventProductionPage = lazyModule(
  `${M}/EventProductionPage.tsx`,
  () => import('./pages/EventProductionPage'),
);
export const OnlineMeetingsPage = lazyModule(
  `${M}/OnlineMeetingsPage.tsx`,
  () => import('./pages/OnlineMeetingsPage'),
);
export const HotTrendsPage = lazyModule(`${M}/HotTrendsPage.tsx`, () => import('./pages/HotTrendsPage'));
export const AboutPage = lazyModule(`${M}/AboutPage.tsx`, () => import('./pages/AboutPage'));
export const EventPlannerPage = lazyModule(
  `${M}/EventPlannerPage.tsx`,
  () => import('./pages/EventPlannerPage'),
);
export const PrivacyPage = lazyModule(`${M}/PrivacyPage.tsx`, () => import('./pages/PrivacyPage'));
export const ContactPage = lazyModule(`${M}/ContactPage.tsx`, () => import('./pages/ContactPage'));
export const BlogPage = lazyModule(`${M}/BlogPage.tsx`, () => import('./pages/BlogPage'));
export const ComingSoonPage = lazyModule(`${M}/ComingSoonPage.tsx`, () => import('./pages/ComingSoonPage'));

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const marketingRoutes = (
  <>
    <Route index element={<HomePage />} />
    <Route path="home" element={<HomePage />} />
    <Route path="creative_services" element={<CreativeServicesPage />} />
    <Route path="event_production" element={<EventProductionPage />} />
    <Route path="online_meetings" element={<OnlineMeetingsPage />} />
    <Route path="hottrends" element={<HotTrendsPage />} />
    <Route path="about" element={<AboutPage />} />
    <Route path="event_planner" element={<EventPlannerPage />} />
    <Route path="privacy" element={<PrivacyPage />} />
    <Route path="contact" element={<ContactPage />} />
    <Route path="social" element={<ContactPage />} />
    <Route path="blog" element={<BlogPage />} />
    <Route path="coming_soon" element={<ComingSoonPage />} />
  </>
);
