import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logoutRequest } from '@/features/auth/queries/auth-api';
import { clearSession, getToken } from '@/lib/session';

/** Logout (docs/reference/01-authoring.md §4): revoke the token on the server (its failure is ignored), clear storage, go to /login. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const token = getToken();
    if (token) logoutRequest(token).catch(() => undefined);
    clearSession();
    void navigate('/login', { replace: true });
  }, [navigate]);
}
