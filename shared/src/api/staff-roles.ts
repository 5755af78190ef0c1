/**
 * Staff roles (issue #33): who on the staff may do what. A member may hold several roles; an owner passes
 * every role check. The server enforces them (api/src/modules/accounts/roles.ts); the web's staff shell
 * reads the same table to show only what the roles allow.
 */

export const STAFF_ROLES = ['owner', 'store_manager', 'finance', 'media'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  store_manager: 'Store manager',
  finance: 'Finance',
  media: 'Media',
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * Each staff area and the roles that may use it (owner always may). 'any' areas are open to every staff
 * member whatever their roles.
 */
export const STAFF_AREA_ROLES = {
  /** GET /api/staff/settings, the overview. */
  any: [],
  stores: ['store_manager'],
  products: ['store_manager'],
  prices: ['store_manager'],
  storeImages: ['store_manager'],
  stock: ['store_manager'],
  pullSheet: ['store_manager', 'finance'],
  orders: ['finance'],
  refunds: ['finance'],
  ordersCsv: ['finance'],
  resendConfirmation: ['finance'],
  paymentTest: ['finance'],
  uploadsInbox: ['media'],
  downloads: ['media'],
  review: ['media'],
  pull: ['media'],
  uploadEvents: ['media'],
  staffManagement: ['owner'],
  invitations: ['owner'],
  audit: ['owner'],
  storePaymentKeys: ['owner'],
  secondFactorSetting: ['owner'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffArea = keyof typeof STAFF_AREA_ROLES;

/**
 * Whether a member holding `held` may use something open to `allowed` (an empty `allowed`: any staff
 * role). Owner passes every check.
 */
export function staffRolesAllow(held: readonly StaffRole[], allowed: readonly StaffRole[]): boolean {
  if (held.length === 0) return false;
  if (held.includes('owner') || allowed.length === 0) return true;
  return allowed.some((role) => held.includes(role));
}

export function staffMayUse(held: readonly StaffRole[], area: StaffArea): boolean {
  return staffRolesAllow(held, STAFF_AREA_ROLES[area]);
}

/** "Finance and Media", "Owner, Finance and Media": roles as the audit log and the staff list say them. */
export function staffRolesSentence(roles: readonly StaffRole[]): string {
  const labels = STAFF_ROLES.filter((role) => roles.includes(role)).map((role) => STAFF_ROLE_LABELS[role]);
  if (labels.length <= 1) return labels[0] ?? 'no role';
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/** The refusal when a staff member's roles do not cover a route (403). */
export const FORBIDDEN_ROLE_MESSAGE = 'Your role does not allow this.';

// Staff management (owner only): /api/staff/members…, /api/staff/invitations… (docs/api.md).

export interface StaffMemberJson {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  roles: StaffRole[];
  /** ISO time, or null when never signed in. */
  lastSignInAt: string | null;
  /** Null when the factors' tables are not there yet. */
  secondFactor: { passkeys: number; totp: boolean } | null;
  /** ISO time, or null while active. */
  deactivatedAt: string | null;
}

export interface StaffInvitationJson {
  id: number;
  email: string;
  roles: StaffRole[];
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

/** POST /api/staff-invitations/lookup { token } (public): what the invitee sees before setting a password. */
export interface StaffInvitationLookupJson {
  email: string;
  roles: StaffRole[];
  invitedBy: string | null;
  expiresAt: string;
}

/**
 * Where an invitation's link leads; its token follows in the fragment (`#token=…`), so it never reaches a
 * server's or a proxy's access log (the page sends it to the API in a request body).
 */
export const STAFF_INVITE_PATH = '/staff/invite';
export const STAFF_INVITATION_TTL_HOURS = 72;
