import type { Tool } from '@aqa/plan';

/** File extension per tool (DESIGN §5: JMX for JMeter, not the spec's YAML). */
export const SCRIPT_EXTENSIONS: Readonly<Record<Tool, string>> = {
  jmeter: 'jmx',
  k6: 'js',
  locust: 'py',
  taurus: 'yml',
  soapui: 'xml',
};

/** A plan name made safe for every file system (ASCII letters, digits, . _ -), "current" when blank. */
export function fileStem(planName: string | undefined): string {
  const safe = (planName ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 80);
  return safe || 'current';
}

/** testplan_{tool}_{plan}.{ext} (DESIGN §5). */
export function scriptFileName(tool: Tool, planName: string | undefined): string {
  return `testplan_${tool}_${fileStem(planName)}.${SCRIPT_EXTENSIONS[tool]}`;
}
