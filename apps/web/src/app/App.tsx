import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './providers';
import { createQueryClient, forgetOnSessionChange, forgetOnWorkspaceChange } from './query-client';
import { createAppRoutes } from './routes';

export function App() {
  const [router] = useState(() => createBrowserRouter(createAppRoutes()));
  const [queryClient] = useState(createQueryClient);
  useEffect(() => forgetOnSessionChange(queryClient), [queryClient]);
  useEffect(() => forgetOnWorkspaceChange(queryClient), [queryClient]);
  return (
    <AppProviders>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppProviders>
  );
}
