import { entryRequestParts, Template, TemplateScope, type OAuth2Spec } from '@aqa/engine/call';
import type { UrlEntry } from '@aqa/plan';
import type { OutgoingRequest } from './http-exchange';

/** This validation pass's variables: what earlier steps extracted, by extractName. */
export type Variables = Record<string, string>;

export type BuiltRequest =
  | {
      ok: true;
      request: OutgoingRequest;
      /** Set when the entry uses OAuth2: its token must be fetched and sent as a bearer token first. */
      oauth2: OAuth2Spec | null;
    }
  | { ok: false; error: string; url: string };

const USER_AGENT = 'AnybodyQA-Validate';

/**
 * The request a URL entry makes, compiled by the call core as a load run compiles it
 * (`entryRequestParts`, docs/call-core.md "What a call sends"), so Validate shows what a run sends,
 * and rendered as one virtual user's first iteration (docs/design.md §4): templates read this pass's
 * variables, a variable no step has set yet stays as written ("{{token}}") and every
 * `{{sequence_number,N}}` is 1. OAuth2 is left to the caller, which fetches the token. Validate
 * names itself in a User-Agent when the entry sends none.
 */
export function buildRequest(entry: UrlEntry, variables: Readonly<Variables>): BuiltRequest {
  const scope = new TemplateScope();
  // A fragment is never sent (the load executor's compile.ts does the same).
  const urlText = entry.url.trim().split('#')[0] ?? '';
  const target = Template.of(urlText, scope);
  const { headers, body, oauth2 } = entryRequestParts(entry, target, urlText, scope);
  const ctx = {
    vars: scope.variables.map((name) => (Object.hasOwn(variables, name) ? variables[name] : undefined)),
    seq: scope.moduli.map(() => 1),
  };

  const written = target.render(ctx);
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return { ok: false, error: `Invalid URL: ${written}`, url: written };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: `Only http:// and https:// URLs can be called: ${written}`, url: written };
  }

  const sent: Record<string, string> = {};
  headers.names.forEach((name, i) => (sent[name] = headers.values[i]!.render(ctx)));
  if (!headers.has('user-agent')) sent['User-Agent'] = USER_AGENT;
  return {
    ok: true,
    request: { method: entry.method, url, headers: sent, body: body?.render(ctx) },
    oauth2,
  };
}

/** The request with `Authorization: value`, replacing a header of that name written in any case. */
export function withAuthorization(request: OutgoingRequest, value: string): OutgoingRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  return { ...request, headers: { ...headers, Authorization: value } };
}
