import helmet from 'helmet';
import type { Config } from '../config.js';

/**
 * The Content-Security-Policy, kept in this one place: a feature that needs an outside origin (Stripe's
 * script and frames, a cloud picker) adds it to the directive here, next to the reason.
 */
/**
 * Stripe.js and its Payment Element, as Stripe's CSP guide lists them: the script, its frames (card fields;
 * 3-D Secure through hooks.stripe.com), its API calls and its card-brand images. Always allowed, not only
 * when STRIPE_* is set, because a store may carry its own Stripe keys on a server that has none; a page
 * that never calls loadStripe (the built-in test gateway) loads nothing from Stripe.
 */
export const STRIPE_CSP = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
} as const;

export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", ...STRIPE_CSP.script],
  // React and widget libraries set inline style attributes; scripts stay strictly same-origin.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', ...STRIPE_CSP.img],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'", ...STRIPE_CSP.connect],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  // The 'Getting Social' feed (web/src/content/site.ts socialFeed), created only when the visitor asks for it.
  'frame-src': ["'self'", 'https://www.facebook.com', ...STRIPE_CSP.frame],
};

/** The directives for this deployment: gallery media from MEDIA_BASE_URL's origin when it is set. */
export function cspDirectives(config: Partial<Pick<Config, 'MEDIA_BASE_URL'>> = {}): Record<string, string[]> {
  const media = config.MEDIA_BASE_URL ? URL.parse(config.MEDIA_BASE_URL)?.origin : undefined;
  if (!media) return CSP_DIRECTIVES;
  return {
    ...CSP_DIRECTIVES,
    'img-src': [...(CSP_DIRECTIVES['img-src'] ?? []), media],
    'media-src': [...(CSP_DIRECTIVES['media-src'] ?? []), media],
  };
}

export function securityHeaders(config: Partial<Pick<Config, 'MEDIA_BASE_URL'>> = {}) {
  return helmet({
    // Exactly the directives above: helmet's defaults would add upgrade-insecure-requests, which breaks
    // the plain-HTTP http://127.0.0.1:3000 of the operating contract.
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // The cloud pickers authorise in a popup that must be able to message this window back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
}
