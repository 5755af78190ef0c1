import helmet from 'helmet';

/**
 * The Content-Security-Policy, kept in this one place: a feature that needs an outside origin (Stripe's
 * script and frames, a cloud picker) adds it to the directive here, next to the reason.
 */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  // React and widget libraries set inline style attributes; scripts stay strictly same-origin.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'self'"],
};

export function securityHeaders() {
  return helmet({
    // Exactly the directives above: helmet's defaults would add upgrade-insecure-requests, which breaks
    // the plain-HTTP http://127.0.0.1:3000 of the operating contract.
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // The cloud pickers authorise in a popup that must be able to message this window back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
}
