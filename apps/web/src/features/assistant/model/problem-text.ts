import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';

/**
 * The parser writes its problems in English (packages/plan/src/text-command.ts); the ones James shows most
 * are worded in the screen's language, keeping the user's own words. Any other message is shown as written.
 */
const PATTERNS: readonly (readonly [RegExp, MessageKey])[] = [
  [/^"(?<words>.*)" was not understood\.$/su, 'assistant.problem.notUnderstood'],
  [/^There is no API named "(?<words>.*)" in this plan\.$/su, 'assistant.problem.noApiNamed'],
  [
    /^A performance plan runs for a duration, not a number of iterations: "(?<words>.*)"\.$/su,
    'assistant.problem.noIterations',
  ],
  [
    /^This plan has a load profile: its stages set the users and the duration; change them in the editor's Load profile: "(?<words>.*)"\.$/su,
    'assistant.problem.profileSetsLoad',
  ],
  [
    /^A functional plan has one think time for all its APIs: "(?<words>.*)"\.$/su,
    'assistant.problem.oneThinkTime',
  ],
  [/^A functional plan has no load tool to change: "(?<words>.*)"\.$/su, 'assistant.problem.noTool'],
  [
    /^A functional plan runs every API in turn and has no transaction rate: "(?<words>.*)"\.$/su,
    'assistant.problem.noRate',
  ],
  [
    /^"(?<words>.*)" holds more than one change: join them with "and", a comma or "그리고"\.$/su,
    'assistant.problem.moreThanOne',
  ],
  [/^Say whether to increase or decrease: "(?<words>.*)"\.$/su, 'assistant.problem.whichWay'],
];

export function problemText(problem: string, t: Translate): string {
  for (const [pattern, key] of PATTERNS) {
    const words = pattern.exec(problem)?.groups?.words;
    if (words !== undefined) return t(key, { words });
  }
  return problem;
}
