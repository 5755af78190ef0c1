import type { Request, RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { ErrorBody } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_MESSAGE = 'This request came from another site and was refused.';

/** A request that authenticates with `Authorization: Bearer ...`: no browser can attach that cross-site. */
export function hasBearer(req: Request): boolean {
  return /^Bearer\s/i.test(req.get('authorization') ?? '');
}

function originOf(value: string): string | undefined {
  const parsed = URL.parse(value);
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.origin : undefined;
}

/**
 * CSRF protection for cookie sessions: a state-changing request (anything but GET, HEAD, OPTIONS) must
 * say it comes from this site. Its Origin header, or failing that its Referer, must name PUBLIC_URL's
 * origin or the host the request was sent to; otherwise 403.
 *
 * Exempt: requests with a bearer token (a cross-site page cannot set that header without a CORS
 * preflight, which this API never grants), and requests with neither Origin nor Referer nor a cookie
 * (not a browser riding on a session: the desktop uploader, curl). Browsers send Origin on every
 * cross-site POST, PUT, PATCH and DELETE, so a forged request always meets the check.
 */
export function sameOrigin(config: Pick<Config, 'PUBLIC_URL'>): RequestHandler {
  const publicOrigin = new URL(config.PUBLIC_URL).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || hasBearer(req)) {
      next();
      return;
    }
    const origin = req.get('origin');
    const referer = req.get('referer');
    const claimed = origin ?? referer;
    if (claimed === undefined) {
      if (req.get('cookie') === undefined) {
        next();
        return;
      }
      refuse(req, res, 'no Origin or Referer on a request with cookies');
      return;
    }
    const from = originOf(claimed);
    const host = req.get('host');
    if (
      from !== undefined &&
      (from === publicOrigin || (host !== undefined && new URL(from).host === host))
    ) {
      next();
      return;
    }
    refuse(req, res, `cross-site ${origin === undefined ? 'Referer' : 'Origin'}: ${claimed}`);
  };
}

function refuse(req: Request, res: Parameters<RequestHandler>[1], reason: string): void {
  req.log?.warn({ reason }, 'refused a state-changing request from another site');
  const body: ErrorBody = { error: { code: 'cross_site', message: CROSS_SITE_MESSAGE } };
  res.status(403).json(body);
}
