/**
 * What search engines and link previews see of each public page: title, description, canonical path.
 * The build's prerender writes these into each page's <head>; on client navigation PageMeta (app/layout)
 * updates the same tags. The sitemap lists the indexable pages whose canonical path is their own.
 */
import { site } from './site';

export interface PageMeta {
  path: string;
  /** The page's own part of the title; the home page uses the full `documentTitle` alone. */
  title: string;
  description: string;
  /** Where the content lives when this path is a second name for it (/home → /, /social → /contact). */
  canonicalPath?: string;
  /** false: `noindex` and left out of the sitemap. */
  indexable: boolean;
}

const HOME_DESCRIPTION =
  'Northbeam Event Productions runs the audiovisual side of conferences, trade shows and galas from Chicago and Orlando: staging, lighting, audio, LED walls, event video and presentations.';

export const PAGES: readonly PageMeta[] = [
  {
    path: '/',
    title: 'Event production, audiovisual and video',
    description: HOME_DESCRIPTION,
    indexable: true,
  },
  {
    path: '/home',
    title: 'Event production, audiovisual and video',
    description: HOME_DESCRIPTION,
    canonicalPath: '/',
    indexable: true,
  },
  {
    path: '/creative_services',
    title: 'Creative Services: event video and presentations',
    description:
      'Opening videos, sponsor commercials, speaker walk-ups, overnight recaps and presentation design, written, shot and edited in house by Northbeam Event Productions.',
    indexable: true,
  },
  {
    path: '/event_production',
    title: 'Event Production: audiovisual and event management',
    description:
      'Staging, lighting, audio, LED walls, cameras and show calling for general sessions, breakouts, trade shows and galas, with one producer from the first walkthrough to load-out.',
    indexable: true,
  },
  {
    path: '/online_meetings',
    title: 'Online Meetings and live streaming',
    description: `${site.streamingProduct.name} streams your general session to remote attendees with a branded player, live Q&A and on-demand replays, produced by the same crew that runs the room.`,
    indexable: true,
  },
  {
    path: '/hottrends',
    title: 'Hot Trends newsletter',
    description:
      'Hot Trends is our short monthly newsletter on event technology: what is working on stage, in hybrid meetings and on the show floor. Read the archive and sign up.',
    indexable: true,
  },
  {
    path: '/about',
    title: 'About us',
    description: `${site.name}: an event production and audiovisual company with offices in Chicago and Orlando, producing meetings since ${site.foundingYear}.`,
    indexable: true,
  },
  {
    path: '/event_planner',
    title: 'Planner Resources: the meeting-planning portal',
    description: `${site.meetingPlanner.name} gives conference planners one web portal for speaker content, registration and audience response, connected to the production team running the show.`,
    indexable: true,
  },
  {
    path: '/privacy',
    title: 'Privacy Policy',
    description: `How ${site.name} collects, uses and protects information on its website, client portal and exhibitor store. Effective May 25, 2018.`,
    indexable: true,
  },
  {
    path: '/contact',
    title: 'Contact us',
    description: `Write to ${site.name}, call ${site.phone} or visit our Chicago and Orlando offices. Tell us about your meeting and a producer will answer within one business day.`,
    indexable: true,
  },
  {
    path: '/social',
    title: 'Contact us',
    description: `Write to ${site.name}, call ${site.phone} or visit our Chicago and Orlando offices. Tell us about your meeting and a producer will answer within one business day.`,
    canonicalPath: '/contact',
    indexable: true,
  },
  {
    path: '/blog',
    title: 'Blog',
    description: `Notes from the production desk at ${site.name}: event technology, hybrid meetings and what we learn on show site. Sign up to hear when new posts go live.`,
    indexable: true,
  },
  {
    path: '/coming_soon',
    title: 'Coming soon',
    description: `This part of the ${site.name} website is being built. Call ${site.phone} or write to us in the meantime.`,
    indexable: false,
  },
];

export const NOT_FOUND_META: PageMeta = {
  path: '/404',
  title: 'Page not found',
  description: `The page you asked for is not on the ${site.name} website.`,
  indexable: false,
};

const byPath = new Map(PAGES.map((page) => [page.path, page]));

export function normalisePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed === '' ? '/' : trimmed;
}

export function pageMeta(pathname: string): PageMeta | undefined {
  return byPath.get(normalisePath(pathname));
}

/** '{page} | {company}', and for the home page '{company}: {tagline part}'. */
export function documentTitle(meta: PageMeta): string {
  return meta.path === '/' || meta.canonicalPath === '/'
    ? `${site.name}: ${meta.title}`
    : `${meta.title} | ${site.name}`;
}

export function canonicalUrl(meta: PageMeta, origin: string): string {
  const path = meta.canonicalPath ?? meta.path;
  return `${origin}${path === '/' ? '/' : path}`;
}
