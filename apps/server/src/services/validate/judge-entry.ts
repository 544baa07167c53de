import type { UrlEntry, ValidationCheckResult } from '@aqa/plan';
import { extractValue, judgeAssertion, type AssertionVerdict } from './entry-checks';
import type { ReceivedResponse } from './http-exchange';
import { readAnswer } from './answer-reading';
import { judgeValidationItem } from './validation-items';

/** What one answer was judged to be: its assertion, each validation item, and what it extracted. */
export interface EntryVerdict {
  assertion: AssertionVerdict | undefined;
  checks: ValidationCheckResult[];
  extracted: string | undefined;
}

type ValidationItem = UrlEntry['validations'][number];

/** The entry's validation items, an unnamed one called "Validation N" as the editor names them (docs/reference/01-authoring.md §3). */
export function namedItems(entry: UrlEntry): ValidationItem[] {
  return entry.validations.map((item, i) =>
    item.name === '' ? { ...item, name: `Validation ${i + 1}` } : item,
  );
}

/** Judges one answer against its entry (in Validate's judging thread, judge.worker.ts). */
export function judgeEntry(entry: UrlEntry, response: ReceivedResponse): EntryVerdict {
  const answer = readAnswer(response);
  return {
    assertion: judgeAssertion(entry, answer),
    checks: namedItems(entry).map((item) => judgeValidationItem(item, answer)),
    extracted: extractValue(entry, answer),
  };
}
