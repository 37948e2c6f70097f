import { STAFF_ROLES, type StaffRole, type StaffView } from '@provee/domain';
import { useState } from 'react';
import { ROLE_NAMES } from '../../lib/labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';

export function RoleChanger({ member, onChange }: { member: StaffView; onChange: (role: StaffRole) => Promise<void> }) {
  const [role, setRole] = useState<StaffRole>(member.role);
  const { pending, error, submit } = useSubmit();
  return (
    <form
      className="bo-form--row bo-form--nowrap"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(() => onChange(role));
      }}
    >
      <select aria-label={`Rol de ${member.name}`} value={role} onChange={(e) => setRole(e.target.value as StaffRole)}>
        {STAFF_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_NAMES[r]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="bo-button bo-button--small"
        disabled={pending || role === member.role}
        aria-label={`Cambiar el rol de ${member.name}`}
      >
        Cambiar
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
