import { checkableUrl, type CompiledPlan, type TargetGuard } from '@aqa/engine';
import type { EngineId } from '@aqa/plan';
import { ForbiddenError, ValidationError } from '../../errors';

const TOOL_NAMES: Readonly<Record<EngineId, string>> = {
  builtin: 'the built-in engine',
  jmeter: 'JMeter',
  k6: 'k6',
  locust: 'Locust',
  taurus: 'Taurus',
};

/**
 * What the guard decides before a load run starts (docs/adr/0015-target-guard.md): every written-out host
 * of the plan's steps and OAuth2 token URLs. A refusal is a 403 TARGET_REFUSED naming the host and the
 * setting, and no run is created. Decided before the reachability check, which opens connections: a
 * refused target is never connected to, so the check cannot be used to scan it.
 */
export function compiledOrigins(compiled: CompiledPlan): Set<string> {
  const origins = new Set<string>();
  for (const step of compiled.steps) {
    if (step.origin !== null) origins.add(step.origin);
    const token = step.oauth2 === null ? null : checkableUrl(step.oauth2.tokenUrl);
    if (token !== null) origins.add(token.origin);
  }
  return origins;
}

/**
 * Every origin decided by the guard; any refused is a 403 TARGET_REFUSED naming each reason once.
 * Load runs (`compiledOrigins` above) and functional runs (services/functional/functional-kinds.ts) share it.
 */
export async function refuseGuardedOrigins(guard: TargetGuard, origins: ReadonlySet<string>): Promise<void> {
  const decisions = await Promise.all([...origins].map((origin) => guard.checkUrl(origin)));
  const reasons = [...new Set(decisions.flatMap((d) => (d.allowed ? [] : [d.reason])))];
  if (reasons.length > 0) throw new ForbiddenError('TARGET_REFUSED', reasons.join(' '));
}

/**
 * A host written as a template (`{{base}}/items`) is known only during the run. The built-in engine
 * asks the guard at every connection, so it may run such a plan; an external tool connects without
 * the guard, so a plan it would run is refused (400 TARGET_NOT_CHECKABLE, per step) rather than
 * sent where no one checked.
 */
export function refuseUncheckableTargets(compiled: CompiledPlan, engine: EngineId): void {
  if (engine === 'builtin') return;
  const tool = TOOL_NAMES[engine];
  const errors = compiled.steps.flatMap((step, index) => {
    const url = compiled.info[index]?.url ?? '';
    const problems = [];
    if (step.origin === null) {
      problems.push({
        field: `urls.${index}.url`,
        message: `The host of ${url} is a template: this server cannot check it against its target rules before a run in ${tool}. Write the host out in the URL.`,
      });
    }
    if (step.oauth2 !== null && checkableUrl(step.oauth2.tokenUrl) === null) {
      problems.push({
        field: `urls.${index}.authorization.tokenUrl`,
        message: `The token URL ${step.oauth2.tokenUrl} has no host this server can check against its target rules before a run in ${tool}. Write the host out.`,
      });
    }
    return problems;
  });
  if (errors.length > 0) throw new ValidationError(errors, { code: 'TARGET_NOT_CHECKABLE' });
}
