/**
 * The staff shell's 403 page (#33): shown for a staff page outside the member's roles (typed or bookmarked)
 * and when any call answers 403 forbidden_role, so a member never meets an empty page or a bare error.
 * It says which role the page needs and leads back to a page the member may use.
 */
import { STAFF_AREA_ROLES, STAFF_ROLE_LABELS, type StaffArea, type StaffRole } from '@avp/shared';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

export const NO_ACCESS = "You don't have access to this page";

/** "It needs the Finance role.", "It needs the Store manager or Finance role." (an owner passes every check). */
export function neededRoleSentence(area: StaffArea | null): string | null {
  if (area === null) return null;
  const roles: readonly StaffRole[] = STAFF_AREA_ROLES[area];
  const labels = (roles.length === 0 ? [] : roles.includes('owner') ? ['owner' as const] : roles).map(
    (role) => STAFF_ROLE_LABELS[role],
  );
  if (labels.length === 0) return null;
  const named =
    labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
  return `It needs the ${named} role.`;
}

export function ForbiddenPage({
  area,
  back,
}: {
  /** The page's area, or null when a call was refused and the page is not known. */
  area: StaffArea | null;
  /** Where the way back leads: a page the member may open, or null when there is none. */
  back: { path: string; label: string } | null;
}) {
  useDocumentTitle(NO_ACCESS);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const needed = neededRoleSentence(area);
  return (
    <section className="staff-forbidden" aria-labelledby="staff-forbidden-title">
      <h1 id="staff-forbidden-title" ref={heading} tabIndex={-1}>
        {NO_ACCESS}
      </h1>
      <p role="alert">{needed ? `${needed} ` : ''}Ask an owner of your team if you need access.</p>
      {back ? (
        <p>
          <Link to={`/${back.path}`}>Back to {back.label}</Link>
        </p>
      ) : null}
    </section>
  );
}
