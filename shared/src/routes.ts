/**
 * The client-side routes of the web app (SPEC §2). The server answers a path that matches none of these
 * with HTTP 404 (still sending the app, which renders 'Sorry, Page Not Found.'), so crawlers and
 * monitors see the truth while the visitor sees the site's own page.
 */
export const PUBLIC_ROUTES = [
  '/',
  '/home',
  '/creative_services',
  '/event_production',
  '/online_meetings',
  '/hottrends',
  '/about',
  '/event_planner',
  '/privacy',
  '/contact',
  '/social',
  '/blog',
  '/coming_soon',
] as const;

export const CLIENT_ROUTES = [
  '/client',
  '/client_test',
  '/register',
  '/reset_password',
  // Passkeys and two-step sign-in (#33).
  '/account/security',
  // Where the cloud pickers' sign-in popups return (Box, OneDrive).
  '/client/cloud-callback',
] as const;

export const STORE_ROUTES = [
  '/exhibitor_order',
  '/exhibitor_order/:storeId',
  '/exhibitor_order/:storeId/checkout',
  '/payment',
  '/confirmation',
] as const;

export const STAFF_ROUTES = [
  '/manage_order_forms',
  '/staff',
  '/staff/products',
  '/staff/orders',
  '/staff/orders/:orderId',
  '/staff/pull-sheet',
  '/staff/stock',
  '/staff/overview',
  '/staff/audit',
  '/staff/uploads',
  '/staff/payment-test',
  '/staff/upload-events',
  '/staff/members',
  // The staff invitation link (#33): outside the staff sign-in gate.
  '/staff/invite',
] as const;

/** Pages that hide the marketing header, contact panel and footer (SPEC §2 'Layout elements'). */
export const BARE_LAYOUT_PREFIXES = [
  '/client/cloud-callback',
  '/manage_order_forms',
  '/staff',
  '/exhibitor_order',
  '/payment',
  '/confirmation',
];

export const KNOWN_ROUTES: readonly string[] = [
  ...PUBLIC_ROUTES,
  ...CLIENT_ROUTES,
  ...STORE_ROUTES,
  ...STAFF_ROUTES,
];

function normalise(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed === '' ? '/' : trimmed;
}

/** Matches a pathname against one pattern: ':name' takes one segment, a trailing '*' takes the rest. */
export function matchRoute(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = normalise(pathname).split('/');
  for (let i = 0; i < want.length; i++) {
    const part = want[i];
    if (part === '*') return got.length > i;
    const seg = got[i];
    if (seg === undefined) return false;
    if (part?.startsWith(':')) {
      if (seg === '') return false;
      continue;
    }
    if (part !== seg) return false;
  }
  return want.length === got.length;
}

export function isKnownRoute(pathname: string): boolean {
  return KNOWN_ROUTES.some((pattern) => matchRoute(pattern, pathname));
}

export function usesBareLayout(pathname: string): boolean {
  const path = normalise(pathname);
  return BARE_LAYOUT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
