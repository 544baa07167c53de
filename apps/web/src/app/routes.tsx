import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RegisterPage } from '@/features/auth/components/RegisterPage';
import { SignInPage } from '@/features/auth/components/SignInPage';
import { SsoSignedInPage } from '@/features/auth/components/SsoSignedInPage';
import { isScreenAvailable, SCREENS, type ScreenId } from '@/lib/screens';
import { DataSourcesProvider } from './data-sources';
import { PublicOnlyRoute, RequireAuth } from './guards';
import { RouteError } from './RouteError';
import { SCREEN_LOADERS, type ScreenLoader } from './screen-loaders';
import { AppShell } from './shell/AppShell';
import type { ScreenHandle } from './shell/Breadcrumbs';

function screenRoute(id: ScreenId, load: ScreenLoader): RouteObject {
  const handle: ScreenHandle = { screen: id };
  return {
    path: SCREENS[id].path,
    handle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/**
 * The route tree (docs/reference/01-authoring.md §2): /login and /register while signed out; everything
 * else inside the shell and behind sign-in. `/` and any unknown path (including screens not built yet) go
 * to /dashboard. The root hands the registered data sources (src/app/data-sources.tsx) to every screen.
 */
export function createAppRoutes(): RouteObject[] {
  // Read when the routes are made, so a test that marks a screen "not built yet" sees its path redirect.
  const screens = (Object.entries(SCREEN_LOADERS) as [ScreenId, ScreenLoader][])
    .filter(([id]) => isScreenAvailable(id))
    .map(([id, load]) => screenRoute(id, load));
  return [
    {
      path: '/',
      element: (
        <DataSourcesProvider>
          <Outlet />
        </DataSourcesProvider>
      ),
      errorElement: <RouteError />,
      hydrateFallbackElement: <div className="min-h-dvh bg-background" />,
      children: [
        // Single sign-on hands its session over here, whoever was signed in before (docs/adr/0033-single-sign-on.md).
        { path: 'login/sso', element: <SsoSignedInPage /> },
        {
          element: <PublicOnlyRoute />,
          children: [
            { path: 'login', element: <SignInPage /> },
            { path: 'register', element: <RegisterPage /> },
          ],
        },
        {
          element: <RequireAuth />,
          children: [
            {
              element: <AppShell />,
              children: [
                { index: true, element: <Navigate to="/dashboard" replace /> },
                ...screens,
                { path: '*', element: <Navigate to="/dashboard" replace /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}
