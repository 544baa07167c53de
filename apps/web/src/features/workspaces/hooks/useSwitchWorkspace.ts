import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useNotice } from '@/components/notices';
import { useT } from '@/i18n';
import { screenPath } from '@/lib/screens';
import { setCurrentWorkspace } from '@/lib/workspace-store';

/**
 * Switches the workspace every later call acts in, and opens the dashboard: the screen shown belonged to
 * the workspace left (its cache is dropped by the app shell, src/app/query-client.ts,
 * docs/adr/0035-workspaces-and-roles.md). `id` null is the personal workspace.
 */
export function useSwitchWorkspace(): (id: string | null, name: string) => void {
  const navigate = useNavigate();
  const notice = useNotice();
  const t = useT();
  return useCallback(
    (id, name) => {
      setCurrentWorkspace(id);
      notice.success(t('workspace.switched', { name }));
      void navigate(screenPath('dashboard'));
    },
    [navigate, notice, t],
  );
}
