import type { PerfPlan, UrlEntry } from '@aqa/plan';
import type { StepInfo } from '../metrics/aggregate';

/**
 * The label the script generators give a step's requests (sampler name in JMeter and Taurus, `name`
 * in Locust, the `name` tag in k6): "3. Login", or "3. POST https://…" for an unnamed step — the
 * same rule as @aqa/converters' script model.
 */
export function toolLabel(entry: UrlEntry, index: number): string {
  const name = entry.name?.trim();
  if (name) return `${index + 1}. ${name}`;
  const url = entry.url.length > 80 ? `${entry.url.slice(0, 77)}...` : entry.url;
  return `${index + 1}. ${entry.method} ${url}`;
}

/** Step rows exactly as the built-in engine names them (name, "METHOD url", url, method). */
export function stepInfos(plan: PerfPlan): StepInfo[] {
  return plan.urls.map((entry) => {
    const url = entry.url.trim();
    const label = `${entry.method} ${url}`;
    return { name: entry.name?.trim() || label, label, url, method: entry.method };
  });
}

/**
 * Finds the plan step of a tool's sample label: the generator's label first, then the step number
 * that every generated label starts with ("3. …"), for labels a tool rewrote (e.g. JMeter text
 * escapes). Anything else (e.g. "OAuth2 token") is no step: -1.
 */
export class StepMatcher {
  private readonly byLabel = new Map<string, number>();
  private readonly cache = new Map<string, number>();

  constructor(plan: PerfPlan) {
    plan.urls.forEach((entry, i) => {
      const label = toolLabel(entry, i);
      if (!this.byLabel.has(label)) this.byLabel.set(label, i);
    });
    this.count = plan.urls.length;
  }

  readonly count: number;

  match(label: string): number {
    const hit = this.cache.get(label);
    if (hit !== undefined) return hit;
    let index = this.byLabel.get(label) ?? this.byLabel.get(label.trim());
    if (index === undefined) {
      const m = /^(\d+)\. /.exec(label);
      const n = m ? Number(m[1]) - 1 : -1;
      index = n >= 0 && n < this.count ? n : -1;
    }
    if (this.cache.size < 10_000) this.cache.set(label, index);
    return index;
  }
}
