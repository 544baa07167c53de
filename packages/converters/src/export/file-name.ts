import type { Tool } from '@aqa/plan';

/** File extension per tool (docs/design.md §5: JMX for JMeter, not the spec's YAML). */
export const SCRIPT_EXTENSIONS: Readonly<Record<Tool, string>> = {
  jmeter: 'jmx',
  k6: 'js',
  locust: 'py',
  taurus: 'yml',
  soapui: 'xml',
};

/**
 * A plan name made safe for every file system: letters of any script, digits, . _ -; accents dropped
 * (É → E) and Hangul kept whole; "current" when nothing is left.
 */
export function fileStem(planName: string | undefined): string {
  const safe = (planName ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 80);
  return safe || 'current';
}

/** testplan_{tool}_{plan}.{ext} (docs/design.md §5). */
export function scriptFileName(tool: Tool, planName: string | undefined): string {
  return `testplan_${tool}_${fileStem(planName)}.${SCRIPT_EXTENSIONS[tool]}`;
}
