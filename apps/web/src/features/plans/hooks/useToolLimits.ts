import { generateScript } from '@aqa/converters';
import type { EngineInfo } from '@aqa/plan';
import { contract } from '@aqa/contract';
import { useDeferredValue, useMemo } from 'react';
import { useRouteQuery } from '@/lib/queries';
import { checkScriptRequest } from '../model/form-to-plan';
import type { PlanForm } from '../model/plan-form';

/** What the plan's tool, as this server has it, cannot run of the plan: shown before Run. */
export interface ToolLimits {
  /** The tool with its version, as GET /api/engines names it ("Apache JMeter 2.13"). */
  toolName: string;
  /** One sentence a field: "urls[0].extractValue: …". */
  reasons: string[];
}

/**
 * The tools this server has (GET /api/engines), through the query cache (one entry for every screen that
 * asks, asked again when a screen opens); null until they answered or when they could not be asked (the
 * run's own refusal still says it then).
 */
function useEngines(): EngineInfo[] | null {
  return useRouteQuery(contract.runs.engines).data ?? null;
}

/**
 * Whether the plan's tool, at the version installed here, can run the plan: the same generators the server
 * runs, written for that version (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). Null when
 * it can, when the tool is not usable here (its plans run in the built-in engine), or while unknown.
 */
export function toolLimitsOf(form: PlanForm, engines: EngineInfo[] | null): ToolLimits | null {
  const engine = engines?.find((e) => e.tool === form.tool);
  if (!engine?.usable || engine.version === null) return null;
  const check = checkScriptRequest(form);
  if (!check.ok) return null;
  const { unsupported = [] } = generateScript(check.request, form.tool, {
    toolVersion: engine.version,
    forRun: true,
  });
  if (unsupported.length === 0) return null;
  return {
    toolName: `${engine.name} ${engine.version}`,
    reasons: unsupported.map((u) => `${u.field}: ${u.message}`),
  };
}

export function useToolLimits(form: PlanForm): ToolLimits | null {
  const engines = useEngines();
  // Typing stays smooth: the check follows a moment behind the form, as the script preview does.
  const deferred = useDeferredValue(form);
  return useMemo(() => toolLimitsOf(deferred, engines), [deferred, engines]);
}
