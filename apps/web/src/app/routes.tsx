import { Navigate, type RouteObject } from 'react-router';
import { RegisterPage } from '@/features/auth/components/RegisterPage';
import { SignInPage } from '@/features/auth/components/SignInPage';
import { PublicOnlyRoute, RequireAuth } from './guards';
import { RouteError } from './RouteError';
import { IMPLEMENTED_SCREENS, SCREENS, type ScreenId, type ScreenLoader } from './routes-registry';
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
 * The route tree (spec 01 §2): /login and /register while signed out; everything else inside the shell
 * and behind sign-in. `/` and any unknown path (including screens not built yet) go to /dashboard.
 */
export function createAppRoutes(): RouteObject[] {
  const screens = (Object.entries(IMPLEMENTED_SCREENS) as [ScreenId, ScreenLoader | undefined][]).flatMap(
    ([id, load]) => (load ? [screenRoute(id, load)] : []),
  );
  return [
    {
      path: '/',
      errorElement: <RouteError />,
      hydrateFallbackElement: <div className="min-h-dvh bg-background" />,
      children: [
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
