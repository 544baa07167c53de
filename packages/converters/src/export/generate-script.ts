import type { Tool } from '@aqa/plan';
import { planToJmx } from './plan-to-jmx';
import { planToK6 } from './plan-to-k6';
import { planToLocust } from './plan-to-locust';
import { planToSoapUi } from './plan-to-soapui';
import { planToTaurus } from './plan-to-taurus';
import type { GeneratedScript, ScriptSource } from './script-model';

const GENERATORS: Readonly<Record<Tool, (source: ScriptSource) => GeneratedScript>> = {
  jmeter: planToJmx,
  k6: planToK6,
  locust: planToLocust,
  taurus: planToTaurus,
  soapui: planToSoapUi,
};

/** The script for `tool`, or for the plan's own tool (JMeter when it names none). */
export function generateScript(source: ScriptSource, tool?: Tool): GeneratedScript {
  return GENERATORS[tool ?? source.tool ?? 'jmeter'](source);
}
