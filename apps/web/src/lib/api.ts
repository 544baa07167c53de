import { createCall, requestOf, type CallAnswer, type Route } from '@aqa/contract';
import { clearSession, getToken } from './session';
import { currentWorkspaceId, setCurrentWorkspace, workspaceHeaders } from './workspace-store';

/**
 * The client side of the API (docs/reference/01-authoring.md §7–§8): base /api, JSON bodies with a JSON content type (uploads
 * send FormData and no content type, so the browser writes the multipart boundary), a 30 s time-out,
 * the bearer token of the stored session on every call, and the spec's error texts. A protected call
 * also names the current workspace (docs/adr/0035-workspaces-and-roles.md): X-Workspace-Id, none for the
 * personal one.
 */
export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiFieldError {
  field: string;
  message: string;
}

/**
 * What went wrong: `http` — the server answered with a non-OK status; `network` — no answer (the fetch
 * itself failed); `timeout` — no answer within the time-out; `parse` — an OK answer that is not JSON.
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'parse';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The server's `detail`, or the generated "HTTP {status}: {statusText}". Same as `message`. */
  readonly detail: string;
  readonly code: string | undefined;
  /** Per-field problems from a 400 answer (`errors: [{ field, message }]`). */
  readonly fieldErrors: ApiFieldError[];

  constructor(init: {
    kind: ApiErrorKind;
    status: number;
    message: string;
    code?: string | undefined;
    fieldErrors?: ApiFieldError[];
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.detail = init.message;
    this.code = init.code;
    this.fieldErrors = init.fieldErrors ?? [];
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON with `Content-Type: application/json`. */
  body?: unknown;
  /** Sent as multipart; no content type is set. Mutually exclusive with `body`. */
  formData?: FormData;
  /**
   * Protected call (default): carries the session's bearer token, and a 401 answer ends the session,
   * which sends the user to sign-in. Public calls (login, register, health, demo credentials) pass false.
   */
  auth?: boolean;
  /** Use this token instead of the stored one (logout sends the token it is revoking). */
  token?: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Let the request outlive the page (logout while navigating away). */
  keepalive?: boolean;
  /** Called with an OK answer, to read its headers (X-Total-Count, Content-Disposition). */
  onResponse?: (response: Response) => void;
  /** 'text': the body as it came, unparsed (report downloads); 'blob': its bytes (images). Default 'json'. */
  responseType?: 'json' | 'text' | 'blob';
}

const INVALID_JSON_PREVIEW_CHARS = 120;

function describeDetail(detail: unknown): string | null {
  if (typeof detail === 'string') return detail.trim() ? detail : null;
  // Some servers (FastAPI validation) answer with a list of { msg } objects.
  if (Array.isArray(detail)) {
    const parts = detail
      .map((item: unknown) =>
        typeof item === 'string'
          ? item
          : typeof item === 'object' && item !== null && 'msg' in item && typeof item.msg === 'string'
            ? item.msg
            : null,
      )
      .filter((part): part is string => !!part);
    return parts.length ? parts.join('; ') : null;
  }
  return null;
}

function readFieldErrors(payload: Record<string, unknown>): ApiFieldError[] {
  if (!Array.isArray(payload.errors)) return [];
  return payload.errors.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { field, message } = item as Record<string, unknown>;
    return typeof field === 'string' && typeof message === 'string' ? [{ field, message }] : [];
  });
}

function parseJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/** Sends one request to `/api{path}` and returns the parsed JSON answer (undefined for an empty body). */
export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return sendRequest<T>(`${API_BASE}${path}`, options);
}

/** Sends one request to `url` (a path of this origin, e.g. /api/get-test-plans). */
async function sendRequest<T>(url: string, options: RequestOptions): Promise<T> {
  const { method = 'GET', body, formData, auth = true, signal, keepalive } = options;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const token = options.token !== undefined ? options.token : auth ? getToken() : null;

  const headers: Record<string, string> = { Accept: 'application/json' };
  let requestBody: BodyInit | undefined;
  if (formData) {
    requestBody = formData;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    requestBody = JSON.stringify(body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  const workspace = auth ? currentWorkspaceId() : null;
  if (workspace) Object.assign(headers, workspaceHeaders());

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: requestBody,
        signal: controller.signal,
        credentials: 'same-origin',
        ...(keepalive ? { keepalive } : {}),
      });
    } catch (error) {
      throw toTransportError(error, timedOut, signal);
    }

    if (response.ok && options.responseType === 'blob') {
      options.onResponse?.(response);
      try {
        return (await response.blob()) as T;
      } catch (error) {
        throw toTransportError(error, timedOut, signal);
      }
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw toTransportError(error, timedOut, signal);
    }

    if (!response.ok) {
      let payload: Record<string, unknown> = {};
      try {
        const parsed = text ? parseJson(text) : null;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
          payload = parsed as Record<string, unknown>;
        }
      } catch {
        // A non-JSON error page: fall back to the status line.
      }
      if (response.status === 401 && auth && token) clearSession({ expired: true });
      const code = typeof payload.code === 'string' ? payload.code : undefined;
      forgetLostWorkspace(response.status, code, workspace);
      throw new ApiError({
        kind: 'http',
        status: response.status,
        message: describeDetail(payload.detail) ?? `HTTP ${response.status}: ${response.statusText}`,
        code,
        fieldErrors: readFieldErrors(payload),
      });
    }

    options.onResponse?.(response);
    if (options.responseType === 'text') return text as T;
    if (response.status === 204 || !text.trim()) return undefined as T;
    try {
      return parseJson(text) as T;
    } catch (error) {
      throw new ApiError({
        kind: 'parse',
        status: response.status,
        message: `Invalid JSON response: ${text.slice(0, INVALID_JSON_PREVIEW_CHARS)}`,
        cause: error,
      });
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/** The server's code for a workspace that does not exist or no longer has the caller as a member. */
export const WORKSPACE_NOT_FOUND = 'WORKSPACE_NOT_FOUND';

/**
 * The workspace a call named is gone for this user (deleted, or they were removed from it): later calls
 * go to the personal workspace instead of failing one after another (docs/adr/0035-workspaces-and-roles.md).
 */
export function forgetLostWorkspace(status: number, code: string | undefined, sent: string | null): void {
  if (status === 404 && code === WORKSPACE_NOT_FOUND && sent && sent === currentWorkspaceId()) {
    setCurrentWorkspace(null);
  }
}

function toTransportError(error: unknown, timedOut: boolean, signal: AbortSignal | undefined): unknown {
  // The caller cancelled (e.g. the screen unmounted): pass the AbortError through untouched.
  if (!timedOut && signal?.aborted) return error;
  if (timedOut) {
    return new ApiError({
      kind: 'timeout',
      status: 0,
      message: `Request timed out after ${REQUEST_TIMEOUT_MS / 1000} seconds`,
      cause: error,
    });
  }
  return new ApiError({
    kind: 'network',
    status: 0,
    message: error instanceof Error && error.message ? error.message : 'Failed to fetch',
    cause: error,
  });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body' | 'formData'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body' | 'formData'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** What a typed call takes besides the route's input: the transport's options. */
export type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

/**
 * The one typed call of the web app (docs/contract.md §3): `call(contract.plans.get, { params: { id } })`.
 * The input is typed from the route's schemas and the answer from its 2xx schema; the answer is not
 * parsed again here: the server's response serializer has checked it against the same schema.
 */
export const call = createCall<CallOptions>((request, _route, options) =>
  sendRequest(request.path, {
    ...options,
    method: request.method,
    ...(request.body === undefined ? {} : { body: request.body }),
  }),
);

/** A route that reads a multipart form in its handler (its schema says `consumes: ['multipart/form-data']`). */
export type UploadRoute = Route & { method: 'POST'; schema: { consumes: readonly string[] } };

/**
 * The one typed upload (docs/contract.md §3): `upload(contract.imports.swagger, form)` posts the form to
 * the route's url, with no content type so the browser writes the multipart boundary, and types the
 * answer from the route's 2xx schema as call() does. The form's parts are those the route's summary
 * lists: the handler reads them, so the contract has no body schema to type them with.
 */
export function upload<R extends UploadRoute>(
  route: R,
  form: FormData,
  options?: Omit<RequestOptions, 'method' | 'body' | 'formData'>,
): Promise<CallAnswer<R>> {
  return sendRequest<CallAnswer<R>>(requestOf(route, {}).path, {
    ...options,
    method: 'POST',
    formData: form,
  });
}
