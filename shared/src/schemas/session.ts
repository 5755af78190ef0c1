/** SPEC §3 'Session token'. DESIGN deviation 1 keeps the session itself in an httpOnly cookie; these describe
 * the legacy token and its login time wherever they are still exchanged (legacy calls, the desktop app). */
import { z } from 'zod';

const BASE64URL_SEGMENT = '[A-Za-z0-9_-]+={0,2}';

/** A three-part dotted token (header.payload.signature). */
export const sessionTokenSchema = z
  .string()
  .regex(new RegExp(`^${BASE64URL_SEGMENT}\\.${BASE64URL_SEGMENT}\\.${BASE64URL_SEGMENT}$`));

export const sessionTokenInfoSchema = z.object({
  token: sessionTokenSchema,
  /** Last login, milliseconds since the epoch (stored next to the token). */
  lastLogin: z.number().int().nonnegative(),
});

export type SessionTokenInfo = z.infer<typeof sessionTokenInfoSchema>;
