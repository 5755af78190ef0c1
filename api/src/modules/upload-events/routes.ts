import express from 'express';
import type { Request, Router } from 'express';
import type { Database } from '../../db/index.js';
import { requireStaffRole, requireUser } from '../accounts/index.js';
import { actorOf } from '../staff/audit.js';
import { createEvent, listAllEvents, listOpenEvents, setArchived, updateEvent } from './service.js';

export interface UploadEventsRouteDeps {
  db: Database;
}

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * GET /api/upload-events for anyone who may use the upload forms (a signed-in account); the staff calls
 * under /api/staff/upload-events, staff only, each change audited.
 */
export function uploadEventsRoutes(deps: UploadEventsRouteDeps): Router {
  const router = express.Router();
  // Defining upload events is Media's (#33).
  const media = requireStaffRole('media');
  const noStore: express.RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };

  router.get('/upload-events', requireUser, noStore, async (_req, res) => {
    res.json({ events: await listOpenEvents(deps.db) });
  });

  router.get('/staff/upload-events', media, noStore, async (_req, res) => {
    res.json({ events: await listAllEvents(deps.db) });
  });
  router.post('/staff/upload-events', media, noStore, async (req, res) => {
    res.status(201).json({ event: await createEvent(deps.db, actorOf(req), req.body) });
  });
  router.patch('/staff/upload-events/:id', media, noStore, async (req, res) => {
    res.json({ event: await updateEvent(deps.db, actorOf(req), param(req, 'id'), req.body) });
  });
  router.post('/staff/upload-events/:id/archive', media, noStore, async (req, res) => {
    res.json({ event: await setArchived(deps.db, actorOf(req), param(req, 'id'), true) });
  });
  router.post('/staff/upload-events/:id/restore', media, noStore, async (req, res) => {
    res.json({ event: await setArchived(deps.db, actorOf(req), param(req, 'id'), false) });
  });

  return router;
}
