import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { appPath } from '@/features/auth/model/return-path';
import { clearSession, isExpired, signedOutByChoice, useSession } from '@/lib/session';

/** Every screen but sign-in and registration needs a session (docs/reference/01-authoring.md §6); without one, go to /login. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const expired = session ? isExpired(session) : false;

  useEffect(() => {
    if (!session?.expiresAt) return;
    const remainingMs = Date.parse(session.expiresAt) - Date.now();
    if (!Number.isFinite(remainingMs)) return;
    // setTimeout's limit is about 24.8 days; longer sessions are checked again on the next page load.
    if (remainingMs > 2 ** 31 - 1) return;
    const timer = setTimeout(() => clearSession({ expired: true }), Math.max(0, remainingMs));
    return () => clearTimeout(timer);
  }, [session]);

  if (!session || expired) {
    // The whole address (a notification's link names its workspace in the query): opened once signed in.
    // Not after a Logout: the next sign-in (perhaps another person's) starts at the dashboard.
    if (signedOutByChoice()) return <Navigate to="/login" replace />;
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <Outlet />;
}

/**
 * Sign-in and registration are for signed-out visitors; a signed-in user goes to the page the sign-in was
 * asked for (RequireAuth's `from`: a linked result, an invite), else the dashboard.
 */
export function PublicOnlyRoute() {
  const session = useSession();
  const location = useLocation();
  if (session && !isExpired(session))
    return <Navigate to={appPath((location.state as { from?: unknown } | null)?.from)} replace />;
  return <Outlet />;
}
