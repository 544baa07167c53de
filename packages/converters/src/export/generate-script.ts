import type { LoadProfile, Tool } from '@aqa/plan';
import { planToJmx } from './plan-to-jmx';
import { planToK6 } from './plan-to-k6';
import { planToLocust } from './plan-to-locust';
import { planToSoapUi } from './plan-to-soapui';
import { planToTaurus } from './plan-to-taurus';
import type { GeneratedScript, ScriptSource } from './script-model';

/** How a script is written beyond the plan (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). */
export interface ScriptOptions {
  /** The version of the tool that will run the script, as detected on the server; absent: its newest. */
  toolVersion?: string | null | undefined;
  /** The script is for a run whose results the server reads: write what its readers need (JMeter's error bodies). */
  forRun?: boolean | undefined;
  /**
   * The load over time instead of the plan's users and duration
   * (docs/adr/0027-load-profiles.md "7. Where a profile goes").
   * SoapUI scripts are functional and take none.
   */
  profile?: LoadProfile | undefined;
  /** false: the script alone, without the test data's files beside it (GeneratorOptions.dataFiles). */
  dataFiles?: boolean | undefined;
}

const GENERATORS: Readonly<Record<Tool, (source: ScriptSource, options: ScriptOptions) => GeneratedScript>> =
  {
    jmeter: (source, options) =>
      planToJmx(source, {
        jmeterVersion: options.toolVersion,
        errorBodies: options.forRun,
        profile: options.profile,
        dataFiles: options.dataFiles,
      }),
    k6: (source, options) => planToK6(source, options),
    locust: (source, options) => planToLocust(source, options),
    taurus: (source, options) => planToTaurus(source, options),
    soapui: (source) => planToSoapUi(source),
  };

/**
 * The script for `tool`, or for the plan's own tool (JMeter when it names none), following the plan's
 * load profile unless `options.profile` gives another.
 */
export function generateScript(
  source: ScriptSource,
  tool?: Tool,
  options: ScriptOptions = {},
): GeneratedScript {
  const profile = options.profile ?? source.load_profile;
  const chosen = tool ?? source.tool ?? 'jmeter';
  return GENERATORS[chosen](source, { ...options, profile });
}
