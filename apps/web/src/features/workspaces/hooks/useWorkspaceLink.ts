import { TEAM_WORKSPACE_PREFIX, WORKSPACE_QUERY } from '@aqa/plan';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setCurrentWorkspace } from '@/lib/workspace-store';

/**
 * A link into a team workspace (a notification's "…/functional-test-result/fc_…?workspace_id=ws_…",
 * docs/adr/0035-workspaces-and-roles.md) opens that workspace: it becomes the current one and the
 * parameter leaves the address, so the screen is read in it and a later copy of the address does not
 * switch anyone back. A workspace the user is not in falls back to the personal one (the switcher's
 * list, or the server's 404).
 */
export function useWorkspaceLink(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const named = new URLSearchParams(location.search).get(WORKSPACE_QUERY);
  useEffect(() => {
    if (named === null) return;
    if (named.startsWith(TEAM_WORKSPACE_PREFIX)) setCurrentWorkspace(named);
    const search = new URLSearchParams(location.search);
    search.delete(WORKSPACE_QUERY);
    const rest = search.toString();
    void navigate(
      { pathname: location.pathname, search: rest ? `?${rest}` : '', hash: location.hash },
      { replace: true, state: location.state as unknown },
    );
  }, [named, location.pathname, location.search, location.hash, location.state, navigate]);
}
