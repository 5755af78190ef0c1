/** The four staff roles as checkboxes in one labelled group, with the 'at least one' refusal. */
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@avp/shared';
import { useId } from 'react';
import { Checkbox } from '../../../ui';

export const CHOOSE_A_ROLE = 'Choose at least one role.';

export const ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  owner: 'Everything, including staff and payment keys',
  store_manager: 'Stores, products, prices and stock',
  finance: 'Orders, refunds, CSV and payment test',
  media: 'Uploads inbox, review and pull',
};

export function RolesField({
  value,
  onChange,
  error,
}: {
  value: readonly StaffRole[];
  onChange: (roles: StaffRole[]) => void;
  error?: string | null;
}) {
  const errorId = useId();
  return (
    <fieldset
      className="staff-roles"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>Roles</legend>
      {STAFF_ROLES.map((role) => (
        <Checkbox
          key={role}
          label={STAFF_ROLE_LABELS[role]}
          description={ROLE_DESCRIPTIONS[role]}
          value={value.includes(role)}
          onChange={(on) =>
            onChange(STAFF_ROLES.filter((each) => (each === role ? on : value.includes(each))))
          }
        />
      ))}
      {error ? (
        <p id={errorId} className="staff-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
