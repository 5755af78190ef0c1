import express from 'express';
import type { Request, RequestHandler, Router } from 'express';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { rateLimit } from '../../http/rate-limit.js';
import { requireStaffRole } from '../accounts/index.js';
import { requireFreshSignIn } from '../accounts/fresh-sign-in.js';
import {
  acceptInvitation,
  invite,
  listInvitations,
  lookupInvitation,
  revokeInvitation,
} from './invitations.js';
import { listMembers, parseMemberId, setActive, setRoles } from './members.js';

export interface StaffMembersDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'FRESH_SIGN_IN_MINUTES'>;
  db: Database;
}

export const TOO_MANY_INVITATION_TRIES = 'Too many tries with invitation links. Please wait a few minutes.';

const actorOf = (req: Request) => ({ userId: req.user!.id, ip: req.ip ?? null });
const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * Staff management (#33, docs/api.md 'Staff members'), the owner's: every change also needs a fresh
 * sign-in (FRESH_SIGN_IN_MINUTES).
 *
 *   GET    /api/staff/members                       { members }
 *   PUT    /api/staff/members/:id/roles             { roles } → { members }
 *   POST   /api/staff/members/:id/deactivate        → { members }   (ends every session and token)
 *   POST   /api/staff/members/:id/reactivate        → { members }
 *   GET    /api/staff/invitations                   { invitations }  (pending only)
 *   POST   /api/staff/invitations                   { email, roles } → 201 { invitation }
 *   DELETE /api/staff/invitations/:id               204
 *
 * And the invitee's, public and rate-limited (the token travels in the body, not in a logged URL):
 *
 *   POST   /api/staff-invitations/lookup            { token } → { invitation }
 *   POST   /api/staff-invitations/accept            { token, firstName, lastName, password } → 201
 */
export function staffMembersRoutes(deps: StaffMembersDeps): Router {
  const { db, config } = deps;
  const router = express.Router();
  const owner = requireStaffRole('owner');
  const fresh = requireFreshSignIn(config);
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };

  router.get('/staff/members', owner, noStore, async (_req, res) => {
    res.json({ members: await listMembers(db) });
  });
  router.put('/staff/members/:id/roles', owner, fresh, noStore, async (req, res) => {
    res.json({ members: await setRoles(db, actorOf(req), parseMemberId(param(req, 'id')), req.body) });
  });
  router.post('/staff/members/:id/deactivate', owner, fresh, noStore, async (req, res) => {
    res.json({ members: await setActive(db, actorOf(req), parseMemberId(param(req, 'id')), false) });
  });
  router.post('/staff/members/:id/reactivate', owner, fresh, noStore, async (req, res) => {
    res.json({ members: await setActive(db, actorOf(req), parseMemberId(param(req, 'id')), true) });
  });

  router.get('/staff/invitations', owner, noStore, async (_req, res) => {
    res.json({ invitations: await listInvitations(db) });
  });
  router.post('/staff/invitations', owner, fresh, noStore, async (req, res) => {
    res.status(201).json({ invitation: await invite(deps, actorOf(req), req.body) });
  });
  router.delete('/staff/invitations/:id', owner, fresh, noStore, async (req, res) => {
    const id = param(req, 'id');
    if (!/^\d{1,10}$/.test(id))
      throw new AppError(404, 'not_found', 'There is no pending invitation with that id.');
    await revokeInvitation(db, actorOf(req), Number(id));
    res.status(204).end();
  });

  const tries = rateLimit({
    name: 'staff-invitation-ip',
    windowSeconds: 900,
    max: 30,
    key: (req) => req.ip,
    message: TOO_MANY_INVITATION_TRIES,
  });
  router.post('/staff-invitations/lookup', tries, noStore, async (req, res) => {
    res.json({ invitation: await lookupInvitation(db, req.body) });
  });
  router.post('/staff-invitations/accept', tries, noStore, async (req, res) => {
    res.status(201).json(await acceptInvitation(db, req.user, req.ip ?? null, req.body));
  });

  return router;
}
