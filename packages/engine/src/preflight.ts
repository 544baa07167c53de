import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { CompiledPlan } from './executor/compile';
import type { TargetGuard } from './guard';

export interface TargetCheck {
  origin: string;
  ok: boolean;
  /** Why the origin could not be reached (DNS, refused, TLS, time-out). */
  error?: string;
}

/**
 * Opens (and closes) one connection to every static origin of a compiled plan, so a caller can
 * refuse to start a run whose target cannot be reached at all. Sends no HTTP request, so the
 * target's request count is not affected. Origins with a template are skipped. With a guard, a name
 * is connected to only on addresses the guard allows (docs/adr/0015-target-guard.md): the answer
 * cannot tell whether a refused address has a port open.
 */
export async function checkTargets(
  plan: CompiledPlan,
  opts: { insecureTls?: boolean; timeoutMs?: number; guard?: TargetGuard } = {},
): Promise<TargetCheck[]> {
  const origins = [...new Set(plan.steps.map((s) => s.origin).filter((o): o is string => o !== null))];
  const timeoutMs = opts.timeoutMs ?? 5000;
  return Promise.all(
    origins.map(
      (origin) =>
        new Promise<TargetCheck>((resolve) => {
          const u = new URL(origin);
          const secure = u.protocol === 'https:';
          const port = Number(u.port || (secure ? 443 : 80));
          const host = u.hostname.replace(/^\[|\]$/g, '');
          const lookup = opts.guard?.lookupFor(port);
          const where = { host, port, ...(lookup === undefined ? {} : { lookup }) };
          const socket = secure
            ? tlsConnect({ ...where, servername: host, rejectUnauthorized: !opts.insecureTls })
            : netConnect(where);
          const done = (error?: string): void => {
            clearTimeout(timer);
            socket.destroy();
            resolve(error === undefined ? { origin, ok: true } : { origin, ok: false, error });
          };
          const timer = setTimeout(() => done(`no connection within ${timeoutMs} ms`), timeoutMs);
          socket.once(secure ? 'secureConnect' : 'connect', () => done());
          socket.once('error', (e: NodeJS.ErrnoException) => done(`${e.code ?? 'error'}: ${e.message}`));
        }),
    ),
  );
}
