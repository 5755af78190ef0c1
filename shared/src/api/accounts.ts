import type { StaffRole } from './staff-roles.js';

/**
 * What the account calls answer (docs/api.md 'Accounts'), typed once for the API and the web pages.
 */

export type UserRole = 'client' | 'staff';

/** Who is signed in: on the server's request, and in sign-in, registration and GET /api/session answers. */
export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  /** #33: the staff member's roles; empty for a client. */
  staffRoles?: StaffRole[];
}
