/**
 * The `aqa` command line talking to an AnybodyQA server (`aqa run --plan ID`, `aqa test --plan ID`;
 * docs/reference/02-running.md §7 "The calls it makes"). Only Node's own fetch: the served single-file
 * CLI (GET /downloads/aqa.mjs) needs nothing installed.
 *
 * Every way a call can fail becomes a RemoteError whose message says what happened in words (the
 * server cannot be reached, the token is refused, the plan is not there), so the commands can print it
 * and exit 2.
 */
import {
  createCall,
  requestOf,
  successSchema,
  type Call,
  type CallInput,
  type CallRequest,
  type Route,
} from '@aqa/contract';
import { ErrorResponseSchema } from '@aqa/plan';
import type { z } from 'zod';

/** The environment variables that stand in for --server and --token (a token need not be on the command line). */
export const SERVER_ENV = 'AQA_SERVER';
export const TOKEN_ENV = 'AQA_TOKEN';
/** Stands in for --workspace: the team workspace the commands act in (docs/adr/0035-workspaces-and-roles.md). */
export const WORKSPACE_ENV = 'AQA_WORKSPACE';

/** A remote command that cannot go on; the message is the sentence the terminal shows. */
export class RemoteError extends Error {}

export interface RemoteTarget {
  /** The server's origin and base path, without a trailing slash: http://host:5200. */
  server: string;
  token: string;
  /** The workspace every call acts in (the X-Workspace-Id header); the token's user's personal one when absent. */
  workspace?: string;
}

/**
 * --server / --token, else AQA_SERVER / AQA_TOKEN; a missing or unusable one is named. `purpose` says
 * why the command needs a server, for the message when none is given.
 */
export function remoteTarget(
  flags: { server?: string | undefined; token?: string | undefined; workspace?: string | undefined },
  env: NodeJS.ProcessEnv,
  purpose = '--plan runs a saved plan on a server',
): RemoteTarget {
  const server = (flags.server ?? env[SERVER_ENV] ?? '').trim();
  const token = (flags.token ?? env[TOKEN_ENV] ?? '').trim();
  if (server === '')
    throw new RemoteError(
      `${purpose}: give --server URL or set ${SERVER_ENV} (e.g. https://aqa.example.com)`,
    );
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new RemoteError(
      `--server ${JSON.stringify(server)} is not a URL: write e.g. https://aqa.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RemoteError(`--server ${JSON.stringify(server)} must start with http:// or https://`);
  if (token === '')
    throw new RemoteError(
      `the server needs an API token: set ${TOKEN_ENV} (or give --token); create one in Settings → API tokens`,
    );
  const workspace = (flags.workspace ?? env[WORKSPACE_ENV] ?? '').trim();
  return {
    server: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
    token,
    ...(workspace === '' ? {} : { workspace }),
  };
}

/** What fetch's failure says, in words: the system's error code when there is one. */
export function networkReason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED')
    return 'connection refused (is the server running, and is the address right?)';
  if (cause?.code === 'ENOTFOUND') return 'no such host';
  if (cause?.code !== undefined) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (cause?.message !== undefined) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** What a call is for, so a 404 can say what was not found. */
export interface CallPurpose {
  /** e.g. "performance plan abc123": said when the server answers 404. */
  notFound?: string;
}

/** The server's own sentence (ErrorResponse detail), or the status text. */
export async function serverReason(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = ErrorResponseSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const fields = (parsed.data.errors ?? []).map((e) => `${e.field}: ${e.message}`);
      return [parsed.data.detail, ...fields].join('; ');
    }
  } catch {
    // not JSON: the status text says it
  }
  return response.statusText || `HTTP ${response.status}`;
}

/** A client of one server with one token. */
export class RemoteClient {
  constructor(private readonly target: RemoteTarget) {}

  get server(): string {
    return this.target.server;
  }

  /**
   * The contract's typed call (docs/contract.md §3): `client.call(contract.runs.result, { params: { id } },
   * { notFound })`. The answer is read by the route's 2xx schema; an answer of another shape is said, not
   * trusted (this aqa may talk to a server of another version).
   */
  readonly call: Call<CallPurpose> = createCall<CallPurpose>(async (request, route, purpose) => {
    const schema = successSchema(route);
    return schema === undefined ? undefined : this.answer(request, schema, purpose);
  });

  /**
   * The route's call, with only the part of its answer the command needs read (by `schema`, a part of
   * the route's answer schema): a field the command does not use may change without breaking it.
   */
  read<S extends z.ZodType, R extends Route>(
    schema: S,
    route: R,
    input: CallInput<R>,
    purpose?: CallPurpose,
  ): Promise<z.output<S>> {
    return this.answer(requestOf(route, input), schema, purpose);
  }

  private async answer<S extends z.ZodType>(
    request: CallRequest,
    schema: S,
    purpose: CallPurpose | undefined,
  ): Promise<z.output<S>> {
    const response = await this.send(request.method, request.path, request.body, purpose);
    const where = `${request.method} ${request.path}`;
    let raw: unknown;
    try {
      raw = await response.json();
    } catch (error) {
      throw new RemoteError(
        `the server at ${this.target.server} answered ${where} with something that is not JSON (${(error as Error).message}); is this an AnybodyQA server?`,
      );
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      throw new RemoteError(
        `the server at ${this.target.server} answered ${where} in a shape this aqa does not read (${parsed.error.issues[0]?.message ?? 'unknown'}); download the CLI again from the server`,
      );
    return parsed.data;
  }

  /** `method` `path` (under the server's base); answers the response when it is 2xx, else throws in words. */
  async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    purpose: CallPurpose = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.target.server}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.target.token}`,
          ...(this.target.workspace === undefined ? {} : { 'x-workspace-id': this.target.workspace }),
          accept: 'application/json, text/event-stream',
          // A form (an upload) sets its own multipart content type.
          ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      throw new RemoteError(`cannot reach the server at ${this.target.server}: ${networkReason(error)}`);
    }
    if (response.ok) return response;
    const reason = await serverReason(response);
    if (response.status === 401)
      throw new RemoteError(
        `the server at ${this.target.server} refused the token (401: ${reason}); it may be mistyped, expired or revoked — create a new one in Settings → API tokens`,
      );
    if (response.status === 404 && purpose.notFound !== undefined)
      throw new RemoteError(
        `${purpose.notFound} was not found on ${this.target.server} (404: ${reason}); check the id, the workspace (--workspace), and that the token's user may see it`,
      );
    throw new RemoteError(`the server answered ${response.status} to ${method} ${path}: ${reason}`);
  }
}

/** One server-sent event: its name and its data, parsed as JSON. */
export interface ServerEvent {
  event: string;
  data: unknown;
}

/**
 * The events of a text/event-stream body, as they arrive. Comment lines (the server's heartbeat) are
 * skipped; a data field that is not JSON is passed on as text.
 */
export async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  // A chunk that ends in \r may be half of \r\n: it waits for the next chunk before it is read.
  let carriageReturn = '';
  for await (const chunk of body) {
    let text = carriageReturn + decoder.decode(chunk, { stream: true });
    carriageReturn = text.endsWith('\r') ? '\r' : '';
    if (carriageReturn !== '') text = text.slice(0, -1);
    buffer += text.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length === 0) continue;
      const text = data.join('\n');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // kept as text
      }
      yield { event, data: parsed };
    }
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
