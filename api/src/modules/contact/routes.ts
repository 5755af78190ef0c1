import express from 'express';
import type { Router } from 'express';
import { clientIp, rateLimit } from '../../http/rate-limit.js';
import { submitContact } from './service.js';
import type { ContactDeps } from './service.js';

/** SPEC §7 is silent on limits; a person sends one or two messages, a robot hundreds. */
export const CONTACT_RATE_LIMIT = { windowSeconds: 3600, max: 10 } as const;
export const CONTACT_RATE_LIMITED =
  'You have sent a lot of messages from this network in the last hour. Please try again later, or call or e-mail us directly.';

/**
 * POST /api/contact: the contact form and the Hot Trends sign-up (body `variant: 'newsletter'`).
 * 201 `{ received: true }`; 400 with field errors; 429 past the per-IP limit. POST /api/submitContact.php,
 * the spec's name for the call (SPEC §7), is the same handler.
 */
export function contactRoutes(deps: ContactDeps): Router {
  const router = express.Router();
  const limit = rateLimit({
    name: 'contact',
    ...CONTACT_RATE_LIMIT,
    key: (req) => clientIp(req),
    message: CONTACT_RATE_LIMITED,
  });
  router.post(['/contact', '/submitContact.php'], limit, async (req, res) => {
    const outcome = await submitContact({ ...deps, logger: req.log }, req.body, clientIp(req));
    if (outcome.stored) req.log.info({ contactMessageId: outcome.id }, 'contact message stored');
    res.status(201).set('Cache-Control', 'no-store').json({ received: true });
  });
  return router;
}
