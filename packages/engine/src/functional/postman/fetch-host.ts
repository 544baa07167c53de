/**
 * A SandboxHost that performs pm.sendRequest calls with Node's fetch: the plain host for callers that
 * have no sampler of their own (docs/adr/0028-postman-sandbox.md). Redirects are followed, as Postman does.
 */
import type { SandboxHost, SandboxRequest, SandboxResponse } from './sandbox-types';

export function fetchSandboxHost(options: { timeoutMs?: number } = {}): SandboxHost {
  return {
    async sendRequest(req: SandboxRequest): Promise<SandboxResponse | { error: string }> {
      const started = performance.now();
      try {
        const res = await fetch(req.url, {
          method: req.method,
          headers: req.headers.map((h) => [h.key, h.value] as [string, string]),
          ...(req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD'
            ? { body: req.body }
            : {}),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        const body = await res.text();
        const headers = [...res.headers].map(([key, value]) => ({ key, value }));
        return {
          code: res.status,
          status: res.statusText,
          headers,
          body,
          responseTime: Math.round(performance.now() - started),
          responseSize: Buffer.byteLength(body),
        };
      } catch (e) {
        const cause = (e as { cause?: { message?: string } }).cause?.message;
        return { error: cause ? `${(e as Error).message}: ${cause}` : (e as Error).message };
      }
    },
  };
}
