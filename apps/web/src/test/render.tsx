import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi, type Mock } from 'vitest';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { createQueryClient } from '@/app/query-client';
import { createAppRoutes } from '@/app/routes';
import type { Language } from '@/i18n';
import { saveSession, type SessionUser } from '@/lib/session';

export const TEST_USER: SessionUser = {
  username: 'ada@example.com',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: 'Analytical Engines',
  role: 'QA Engineer',
};

export function signInAs(user: SessionUser = TEST_USER, token = 'test-token'): void {
  saveSession({ token, user });
}

/**
 * The query client of one rendered test: a fresh one each time (no answer cached by an earlier test),
 * with the app's defaults — retries off (docs/adr/0026-server-state-through-tanstack-query.md).
 */
export function createTestQueryClient(): QueryClient {
  return createQueryClient();
}

/** The app's providers and a fresh query client around a router, as the app shell has them (src/app/App.tsx). */
function renderRouter(router: ReturnType<typeof createMemoryRouter>, language: Language | undefined) {
  const queryClient = createTestQueryClient();
  const result = render(
    <AppProviders language={language ?? 'en'}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** The whole app (all routes, guards and the shell) at `path`, in a memory router. */
export function renderApp(path: string, options: { language?: Language } = {}) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  return renderRouter(router, options.language);
}

/** One element inside the providers and a router, with extra routes to observe navigation. */
export function renderWithRouter(
  element: ReactElement,
  options: { path?: string; initialEntry?: string; routes?: RouteObject[]; language?: Language } = {},
): RenderResult & { router: ReturnType<typeof createMemoryRouter>; queryClient: QueryClient } {
  const path = options.path ?? '/';
  const router = createMemoryRouter([{ path, element }, ...(options.routes ?? [])], {
    initialEntries: [options.initialEntry ?? path],
  });
  return renderRouter(router, options.language);
}

type Handler = (init: RequestInit & { url: string }) => Response | Promise<Response>;
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
export type FetchMock = Mock<FetchLike>;

/** A fetch mock answering from a handler table (see mockFetch); swap tables with mockImplementation. */
export function createFetchMock(handlers: Record<string, Handler>): FetchMock {
  return vi.fn<FetchLike>(mockFetch(handlers));
}

/** The JSON body a mocked request was sent with. */
export function bodyOf(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
}

export function json(body: unknown, status = 200, statusText = 'OK'): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces fetch with a table of `"METHOD /api/path"` handlers; anything else is a 404. Returns the mock,
 * whose calls record every request.
 */
export function mockFetch(handlers: Record<string, Handler>): FetchLike {
  const mock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const handler = handlers[`${method} ${url.split('?')[0]}`];
    if (!handler) return json({ detail: `No mock for ${method} ${url}` }, 404, 'Not Found');
    return handler({ ...init, url });
  };
  return mock;
}

export function headersOf(init: RequestInit | undefined): Record<string, string> {
  return (init?.headers ?? {}) as Record<string, string>;
}
