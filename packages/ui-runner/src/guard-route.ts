import type { BrowserContext, Request, Route } from 'playwright-core';
import type { TargetDecision, TargetGuard } from '@aqa/engine';

/*
 * Every request a UI run's pages make asks the target guard first (docs/adr/0015-target-guard.md), as
 * the API runner's calls do: documents, scripts, images, fetches. A refused request is aborted and kept
 * with the guard's reason, so the step's failed requests say why. Decisions are kept per origin for
 * the run. A navigation's method other than GET is set here, where the document request is sent.
 */

/** What the route handler tells the step about a refused request. */
export type RefusalListener = (request: Request, reason: string) => void;

export interface GuardRoute {
  /** The method (and body) the next navigation to `url` is sent with, instead of GET. */
  setNavigationMethod(url: string, method: string, body: string): void;
  /** The reason the guard gave for a request it refused, if it did. */
  refusalOf(request: Request): string | undefined;
}

/** Schemes a page may load without a connection (inline data, the page's own blobs). */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

export async function installGuardRoute(
  context: BrowserContext,
  guard: TargetGuard | undefined,
): Promise<GuardRoute> {
  const decisions = new Map<string, Promise<TargetDecision>>();
  const refusals = new WeakMap<Request, string>();
  let pendingMethod: { url: string; method: string; body: string } | null = null;

  const decide = (url: URL): Promise<TargetDecision> => {
    if (guard === undefined || LOCAL_SCHEMES.has(url.protocol)) return Promise.resolve({ allowed: true });
    if (
      url.protocol !== 'http:' &&
      url.protocol !== 'https:' &&
      url.protocol !== 'ws:' &&
      url.protocol !== 'wss:'
    ) {
      return Promise.resolve({
        allowed: false,
        reason: `Requests to ${url.protocol} URLs are refused: a UI test opens http and https pages only.`,
      });
    }
    let decision = decisions.get(url.origin);
    if (decision === undefined) {
      decision = guard.checkUrl(url).catch((e: unknown) => ({
        allowed: false as const,
        reason: `The target guard could not decide on ${url.origin}: ${e instanceof Error ? e.message : String(e)}`,
      }));
      decisions.set(url.origin, decision);
    }
    return decision;
  };

  const handle = async (route: Route): Promise<void> => {
    const request = route.request();
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      await route.abort('addressunreachable').catch(() => undefined);
      return;
    }
    const decision = await decide(url);
    if (!decision.allowed) {
      refusals.set(request, decision.reason);
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    const override = pendingMethod;
    if (override !== null && request.isNavigationRequest() && sameUrl(override.url, request.url())) {
      pendingMethod = null;
      const withBody = override.method !== 'GET' && override.method !== 'HEAD' && override.body !== '';
      await route
        .continue({ method: override.method, ...(withBody ? { postData: override.body } : {}) })
        .catch(() => undefined);
      return;
    }
    await route.continue().catch(() => undefined);
  };

  await context.route('**/*', handle);
  return {
    setNavigationMethod(url, method, body) {
      pendingMethod = method.toUpperCase() === 'GET' ? null : { url, method: method.toUpperCase(), body };
    },
    refusalOf: (request) => refusals.get(request),
  };
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
