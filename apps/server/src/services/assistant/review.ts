import type { Finding, FindingSeverity } from '@aqa/plan';
import type { AssistantData } from './data';
import { apiRankingFindings } from './findings/api-rankings';
import { lastValidationFailedFindings } from './findings/last-validation-failed';
import { meaninglessSettingFindings } from './findings/meaningless-settings';
import { neverRanFindings } from './findings/never-ran';
import { noAssertionFindings } from './findings/no-assertions';
import { regressionFindings } from './findings/regression';
import { saturationFindings } from './findings/saturation';
import type { Lang } from './text';

const SEVERITY_ORDER: Readonly<Record<FindingSeverity, number>> = { problem: 0, warning: 1, info: 2 };

/** Review saved plans (docs/design.md §10): every finding of the user's data, problems first. */
export function reviewFindings(
  data: AssistantData,
  ran: { perf: ReadonlySet<string>; functional: ReadonlySet<string> },
  lang: Lang,
): Finding[] {
  const findings = [
    ...regressionFindings(data, lang),
    ...lastValidationFailedFindings(data, lang),
    ...apiRankingFindings(data, lang),
    ...saturationFindings(data, lang),
    ...noAssertionFindings(data, lang),
    ...meaninglessSettingFindings(data, lang),
    ...neverRanFindings(data, ran, lang),
  ];
  // A stable sort keeps each severity's findings in the order above.
  return findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}
