import { WORKSPACE_ROLES, type WorkspaceRole } from '@aqa/plan';
import type { ComponentProps } from 'react';
import { NativeSelect } from '@/components/ui/native-select';
import { useT } from '@/i18n';

/** A choice of workspace role (owner, editor, viewer), in the user's language. */
export function RoleSelect({
  value,
  onRole,
  ...props
}: Omit<ComponentProps<typeof NativeSelect>, 'children' | 'value' | 'onChange'> & {
  value: WorkspaceRole;
  onRole: (role: WorkspaceRole) => void;
}) {
  const t = useT();
  return (
    <NativeSelect {...props} value={value} onChange={(e) => onRole(e.target.value as WorkspaceRole)}>
      {WORKSPACE_ROLES.map((choice) => (
        <option key={choice} value={choice}>
          {t(`workspace.role.${choice}`)}
        </option>
      ))}
    </NativeSelect>
  );
}
