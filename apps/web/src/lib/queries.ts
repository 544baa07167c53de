import type { CallAnswer, CallInput, Route } from '@aqa/contract';
import {
  hashKey,
  useQuery,
  type QueryClient,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { call, type CallOptions } from './api';

/*
 * The web's server state through the query cache (docs/adr/0026-server-state-through-tanstack-query.md,
 * docs/contract.md §3): a query's key is the contract route it reads and that call's input, so a key
 * cannot name a route that does not exist, two screens reading the same call share one cache entry, and
 * a save invalidates what it changed by naming the routes.
 */

declare const routeKeyBrand: unique symbol;

/** A query key made of contract routes and their inputs: `[route.url, input, …]`. */
export type RouteKey = readonly unknown[] & { readonly [routeKeyBrand]: true };

/** The key of one route's call: `[route.url, input]` (no input is `{}`). */
export function routeKey<R extends Route>(route: R, input?: CallInput<R>): RouteKey {
  return [route.url, input ?? {}] as unknown as RouteKey;
}

/** The key of a loader that reads several routes (both run lists, say): their keys one after the other. */
export function routesKey(...keys: RouteKey[]): RouteKey {
  return keys.flat() as unknown as RouteKey;
}

/** What a query takes besides its key and its function (polls, enabled, select). */
export type QueryExtras<T, S = T> = Omit<UseQueryOptions<T, Error, S>, 'queryKey' | 'queryFn'>;

/** A call whose input is known to fit its route (the typed call() checks it at the hook's call). */
const untypedCall = call as (route: Route, input: unknown, options: CallOptions) => Promise<unknown>;

/**
 * One route's call as a query: `useRouteQuery(contract.tokens.list)`, the answer typed by the route's
 * schema and cancelled when no screen needs it any more.
 */
export function useRouteQuery<R extends Route, S = CallAnswer<R>>(
  route: R,
  input?: CallInput<R>,
  options: QueryExtras<CallAnswer<R>, S> = {},
): UseQueryResult<S, Error> {
  return useQuery({
    ...options,
    queryKey: routeKey(route, input),
    queryFn: ({ signal }) => untypedCall(route, input ?? {}, { signal }) as Promise<CallAnswer<R>>,
  });
}

/**
 * A query whose function does more than one call — reads a header, joins two lists — keyed by the
 * routes it reads (routeKey, routesKey) and by `view`, the name of what it makes of them, so its entry
 * is never taken for a plain answer of the same call.
 */
export function useRouteLoader<T, S = T>(
  view: string,
  key: RouteKey,
  load: (signal: AbortSignal) => Promise<T>,
  options: QueryExtras<T, S> = {},
): UseQueryResult<S, Error> {
  return useQuery({ ...options, queryKey: [...key, { view }], queryFn: ({ signal }) => load(signal) });
}

/**
 * Marks every cached answer of these routes stale, whatever its input, and fetches again those a screen
 * shows: what a save does for the lists it changed.
 */
export function invalidateRoutes(client: QueryClient, ...routes: Route[]): Promise<void> {
  const urls = new Set(routes.map((route) => route.url));
  return client.invalidateQueries({
    predicate: (query) => query.queryKey.some((part) => typeof part === 'string' && urls.has(part)),
  });
}

/**
 * Calls back on each answer a fetch of one entry brings, and on each failed fetch — not on what
 * `setQueryData` writes into it, nor on a fetch cancelled because nobody needs it: for a screen that
 * feeds a state machine answer by answer (the live result, whose stream writes the same entry). Two
 * equal answers are two calls. Returns the unsubscribe.
 */
export function onFetchedAnswers<T>(
  client: QueryClient,
  key: RouteKey,
  handlers: { answer: (data: T) => void; failure: (error: unknown) => void },
): () => void {
  const hash = hashKey(key);
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== hash) return;
    const { action } = event;
    if (action.type === 'success' && !action.manual) handlers.answer(action.data as T);
    else if (action.type === 'error') handlers.failure(action.error);
  });
}

/**
 * What a screen shows of a query. `data` while loading or after an error is the last answer, if any
 * (a list refreshing after an action does not flash back to its loading state).
 */
export type QueryView<T> =
  | { status: 'idle'; data: null }
  | { status: 'loading'; data: T | null }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown; data: T | null };

/**
 * The screen's view of a query: `idle` when it is not enabled; `loading` until its answer (with the
 * previous one, under `placeholderData: keepPreviousData`) and while a retry after an error runs, so the
 * screen shows its loading state again as it did before the cache; else the answer — kept on screen
 * while it is fetched again — or the error.
 */
export function viewOf<T>(query: UseQueryResult<T, Error>): QueryView<T> {
  const data = query.data ?? null;
  if (query.isError && !query.isFetching) return { status: 'error', error: query.error, data };
  if (query.isSuccess && !query.isPlaceholderData) return { status: 'success', data: query.data };
  if (query.isPending && !query.isFetching) return { status: 'idle', data: null };
  return { status: 'loading', data };
}
