/** The session-timeout rule of SPEC §4 'Authentication', shared by the server and both browser checks. */
import { SESSION_MAX_SECONDS } from './constants.js';

/**
 * Expired once the seconds since the last login exceed the maximum; reaching it exactly is still valid.
 * A missing or unreadable login time counts as expired, so a damaged record can never keep a session alive.
 */
export function isSessionExpired(
  lastLoginMs: number,
  nowMs: number,
  maxSeconds: number = SESSION_MAX_SECONDS,
): boolean {
  if (!Number.isFinite(lastLoginMs)) return true;
  return (nowMs - lastLoginMs) / 1000 > maxSeconds;
}
