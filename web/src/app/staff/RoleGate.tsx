/**
 * Shows a staff page only to a member whose roles allow it (the shared STAFF_AREA_ROLES table the server
 * also enforces); anyone else gets the 403 page, never the page's empty shell.
 */
import { staffMayUse, type StaffArea } from '@avp/shared';
import type { ReactNode } from 'react';
import { useSession } from '../../lib/session';
import { ForbiddenPage } from './ForbiddenPage';
import { staffPagesFor } from './staffPages';

export function RoleGate({ area, children }: { area: StaffArea; children: ReactNode }) {
  const roles = useSession().user?.staffRoles ?? [];
  if (staffMayUse(roles, area)) return children;
  return <ForbiddenPage area={area} back={staffPagesFor(roles)[0] ?? null} />;
}
