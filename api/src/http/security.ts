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
  // 'wasm-unsafe-eval': the upload pages' media-facts worker compiles MediaInfoLib's WebAssembly (issue #30);
  // it allows WebAssembly compilation only, not eval. A same-origin worker needs no worker-src.
  'script-src': ["'self'", "'wasm-unsafe-eval'", ...STRIPE_CSP.script],
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

type CspConfig = Partial<
  Pick<
    Config,
    | 'MEDIA_BASE_URL'
    | 'GOOGLE_CLIENT_ID'
    | 'GOOGLE_API_KEY'
    | 'GOOGLE_PICKER_SCRIPTS'
    | 'DROPBOX_APP_KEY'
    | 'DROPBOX_PICKER_SCRIPTS'
    | 'BOX_CLIENT_ID'
    | 'BOX_CLIENT_SECRET'
    | 'BOX_PICKER_SCRIPTS'
    | 'BOX_API_URL'
    | 'ONEDRIVE_CLIENT_ID'
    | 'ONEDRIVE_PICKER_URL'
    | 'ONEDRIVE_AUTHORITY'
  >
>;

/**
 * What each cloud picker loads and talks to, from its provider's documentation, added only when the
 * provider is configured: Google's Picker and Identity Services (scripts, the picker frame, the token
 * popup's messages, thumbnails), the Dropbox Chooser (script and frame), Box's Content Picker (script,
 * style sheet, API calls, thumbnails), and OneDrive's v8 picker with MSAL (sign-in and Graph calls; the
 * picker itself opens in a popup).
 */
function cloudPickerSources(config: CspConfig): Partial<Record<string, string[]>> {
  const origins = (urls: readonly string[] | undefined) =>
    (urls ?? []).flatMap((url) => URL.parse(url)?.origin ?? []);
  const add: Record<string, string[]> = {};
  const push = (directive: string, values: string[]) => {
    add[directive] = [...(add[directive] ?? []), ...values];
  };
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_API_KEY) {
    const scripts = origins(config.GOOGLE_PICKER_SCRIPTS);
    push('script-src', [...scripts, 'https://apis.google.com', 'https://accounts.google.com']);
    push('style-src', ['https://accounts.google.com']);
    push('frame-src', [
      ...scripts,
      'https://docs.google.com',
      'https://drive.google.com',
      'https://accounts.google.com',
      'https://content.googleapis.com',
    ]);
    push('connect-src', [
      ...scripts,
      'https://accounts.google.com',
      'https://www.googleapis.com',
      'https://content.googleapis.com',
    ]);
    push('img-src', [
      'https://*.googleusercontent.com',
      'https://ssl.gstatic.com',
      'https://drive-thirdparty.googleusercontent.com',
    ]);
  }
  if (config.DROPBOX_APP_KEY) {
    const scripts = origins(config.DROPBOX_PICKER_SCRIPTS);
    push('script-src', [...scripts, 'https://www.dropbox.com']);
    push('frame-src', [...scripts, 'https://www.dropbox.com']);
  }
  if (config.BOX_CLIENT_ID && config.BOX_CLIENT_SECRET) {
    const scripts = origins(config.BOX_PICKER_SCRIPTS);
    const api = origins(config.BOX_API_URL ? [config.BOX_API_URL] : []);
    push('script-src', [...scripts, 'https://cdn01.boxcdn.net']);
    push('style-src', [...scripts, 'https://cdn01.boxcdn.net']);
    push('connect-src', [
      ...scripts,
      ...api,
      'https://api.box.com',
      'https://upload.box.com',
      'https://*.boxcloud.com',
    ]);
    push('img-src', [...scripts, 'https://*.boxcdn.net', 'https://*.boxcloud.com']);
  }
  if (config.ONEDRIVE_CLIENT_ID) {
    const authority = origins(config.ONEDRIVE_AUTHORITY ? [config.ONEDRIVE_AUTHORITY] : []);
    const picker = origins(config.ONEDRIVE_PICKER_URL);
    push('connect-src', [...authority, 'https://login.microsoftonline.com', 'https://graph.microsoft.com']);
    push('frame-src', [...authority, ...picker, 'https://login.microsoftonline.com']);
    // The v8 picker page loads in a frame in the page (frame-src above), by POSTing the access token to
    // it from a form in the page whose target is that frame: without its origin here the browser refuses
    // the submission and the picker never opens.
    push('form-action', picker);
  }
  return add;
}

/**
 * The directives for this deployment: gallery media from MEDIA_BASE_URL's origin when it is set, and
 * the configured cloud pickers' sources.
 */
export function cspDirectives(config: CspConfig = {}): Record<string, string[]> {
  const media = config.MEDIA_BASE_URL ? URL.parse(config.MEDIA_BASE_URL)?.origin : undefined;
  const extra = cloudPickerSources(config);
  if (media) {
    extra['img-src'] = [...(extra['img-src'] ?? []), media];
    extra['media-src'] = [...(extra['media-src'] ?? []), media];
  }
  const directives: Record<string, string[]> = { ...CSP_DIRECTIVES };
  for (const [name, values] of Object.entries(extra)) {
    directives[name] = [...new Set([...(directives[name] ?? []), ...(values ?? [])])];
  }
  return directives;
}

export function securityHeaders(config: CspConfig = {}) {
  return helmet({
    // Exactly the directives above: helmet's defaults would add upgrade-insecure-requests, which breaks
    // the plain-HTTP http://127.0.0.1:3000 of the operating contract.
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // The cloud pickers authorise in a popup that must be able to message this window back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
}
