import type { z } from 'zod';
import type { Method, Route } from './route';

/*
 * The one typed client call (docs/contract.md): `call(route, input)` builds the request from the route's
 * entry — the `:name` parameters of its url filled in, its query string, its JSON body — and types the
 * answer from the route's first 2xx schema. The transport (fetch with the web's session, or the CLI's
 * token) is given once to createCall.
 */

type Schema<R extends Route, K extends 'params' | 'querystring' | 'body'> = R['schema'][K];

/** Input keys whose every field may be left out are optional themselves. */
type Part<K extends string, S> = S extends z.ZodType
  ? Record<never, never> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a call of the route takes: its path parameters, its query and its body, by the route's schemas. */
export type CallInput<R extends Route> = Part<'params', Schema<R, 'params'>> &
  Part<'query', Schema<R, 'querystring'>> &
  Part<'body', Schema<R, 'body'>>;

type SuccessStatus = 200 | 201 | 202 | 204;

/** The schema of the route's successful answer. */
export type SuccessSchema<R extends Route> = R['schema']['response'][Extract<
  keyof R['schema']['response'],
  SuccessStatus
>];

/** What a successful call of the route answers: the output of its 2xx schema. */
export type CallAnswer<R extends Route> =
  SuccessSchema<R> extends z.ZodType ? z.output<SuccessSchema<R>> : never;

/** A request ready for the transport: `path` has its parameters and query filled in. */
export interface CallRequest {
  method: Method;
  path: string;
  body: unknown;
}

/** A path parameter or query value: only text, numbers and booleans go into a URL. */
function text(url: string, name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new Error(`${url}: ${name} must be text or a number`);
}

/** The url with `:name` filled in from params (each encoded), then the query's defined values. */
export function requestOf(
  route: Route,
  input: { params?: unknown; query?: unknown; body?: unknown },
): CallRequest {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = route.url.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null)
      throw new Error(`${route.url}: the parameter ${name} is missing`);
    return encodeURIComponent(text(route.url, name, value));
  });
  const query = Object.entries((input.query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(text(route.url, key, value))}`)
    .join('&');
  return { method: route.method, path: query ? `${path}?${query}` : path, body: input.body };
}

/**
 * The transport: sends the request and gives back the answer's body. `route` is there for a transport
 * that checks the answer against the route's schema (the CLI does; see docs/contract.md "Answers").
 */
export type Send<O> = (request: CallRequest, route: Route, options: O | undefined) => Promise<unknown>;

export type Call<O> = <R extends Route>(
  route: R,
  ...args: Record<never, never> extends CallInput<R>
    ? [input?: CallInput<R>, options?: O]
    : [input: CallInput<R>, options?: O]
) => Promise<CallAnswer<R>>;

/** One typed call over a transport of the caller's. */
export function createCall<O>(send: Send<O>): Call<O> {
  return (async (route: Route, input: Parameters<typeof requestOf>[1] = {}, options?: O) =>
    send(requestOf(route, input), route, options)) as Call<O>;
}

/** The route's successful answer schema, for a transport that checks what came back. */
export function successSchema(route: Route): z.ZodType | undefined {
  for (const [status, schema] of Object.entries(route.schema.response)) {
    if (Number(status) >= 200 && Number(status) < 300) return schema;
  }
  return undefined;
}
