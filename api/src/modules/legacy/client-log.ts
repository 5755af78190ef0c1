import express from 'express';
import type { Request, Router } from 'express';
import { Op } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { ClientLogAttributes, UserInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { clientIp, rateLimit } from '../../http/rate-limit.js';
import { requireStaffRole } from '../accounts/index.js';
import type { LegacyDeps } from './routes.js';

/**
 * SPEC §7 'Log' (POST /api/log.php, type and data): what the original pages report, kept in `client_logs`
 * for staff (GET /api/log.php). Anyone may send, since a page reports before sign-in too, so each report
 * is bounded in size, each address in number, and the table in age.
 */

export const CLIENT_LOG_LIMITS = {
  /** The report's data, as JSON text. */
  dataMaxBytes: 8 * 1024,
  perIp: { windowSeconds: 3600, max: 120 },
  retentionDays: 30,
  pageMax: 500,
} as const;

export const CLIENT_LOG_TOO_LARGE = `A log entry's data may be at most ${CLIENT_LOG_LIMITS.dataMaxBytes} bytes of JSON.`;
export const CLIENT_LOG_RATE_LIMITED = 'Too many log entries from this address. Please try again later.';
const TYPE_REQUIRED = 'type names the kind of entry (at most 64 characters).';

// Old rows are deleted by roughly one report in this many.
const PRUNE_ONE_IN = 100;

const entrySchema = z.object({
  type: z.string({ error: TYPE_REQUIRED }).trim().min(1, TYPE_REQUIRED).max(64, TYPE_REQUIRED),
  data: z.unknown(),
});

const listSchema = z.object({
  type: z.string().max(64).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(CLIENT_LOG_LIMITS.pageMax).default(100),
});

function parseData(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function legacyLogRoutes(deps: LegacyDeps): Router {
  const { db } = deps;
  const router = express.Router();

  router.post(
    '/log.php',
    rateLimit({
      name: 'client-log',
      ...CLIENT_LOG_LIMITS.perIp,
      key: clientIp,
      message: CLIENT_LOG_RATE_LIMITED,
    }),
    async (req: Request, res) => {
      const entry = entrySchema.parse(req.body ?? {});
      const data = JSON.stringify(entry.data ?? null);
      if (Buffer.byteLength(data) > CLIENT_LOG_LIMITS.dataMaxBytes) {
        throw new AppError(413, 'log_entry_too_large', CLIENT_LOG_TOO_LARGE, { data: CLIENT_LOG_TOO_LARGE });
      }
      const now = new Date();
      await db.models.ClientLog.create({
        type: entry.type,
        data,
        userId: req.user?.id ?? null,
        ip: clientIp(req).slice(0, 64),
        userAgent: req.get('user-agent')?.slice(0, 512) ?? null,
        createdAt: now,
      });
      if (Math.floor(Math.random() * PRUNE_ONE_IN) === 0) {
        const cutoff = new Date(now.getTime() - CLIENT_LOG_LIMITS.retentionDays * 86_400_000);
        await db.models.ClientLog.destroy({ where: { createdAt: { [Op.lt]: cutoff } } });
      }
      res.status(201).set('Cache-Control', 'no-store').json({ success: true });
    },
  );

  // Owners read the reports (#33: like the audit log, they name accounts), newest first: ?type= keeps one kind, ?before=<id> pages back.
  router.get('/log.php', requireStaffRole('owner'), async (req, res) => {
    const query = listSchema.parse(req.query);
    const where: WhereOptions<ClientLogAttributes> = {};
    if (query.type !== undefined) Object.assign(where, { type: query.type });
    if (query.before !== undefined) Object.assign(where, { id: { [Op.lt]: query.before } });
    const rows = await db.models.ClientLog.findAll({
      where,
      include: [{ model: db.models.User, as: 'user', required: false }],
      order: [['id', 'DESC']],
      limit: query.limit,
    });
    const entries = rows.map((row) => {
      const user = (row as typeof row & { user?: UserInstance | null }).user;
      return {
        id: row.id,
        at: row.createdAt.toISOString(),
        type: row.type,
        data: parseData(row.data),
        user: user ? { id: user.id, email: user.email } : null,
        ip: row.ip,
        userAgent: row.userAgent,
      };
    });
    res.set('Cache-Control', 'no-store').json({ entries });
  });

  return router;
}
