import { readScript, type ScriptRead } from './script-read';
import { readSelenium, type SeleniumRead } from './selenium-read';
import type { ScriptFramework } from './script-form';

/**
 * What the script screen asks its reader, and what it answers: the same request in the page (tests,
 * browsers without workers) and in script-read.worker.ts (docs/reference/02-running.md §2 "Functional
 * Script Input screen": the script is read after typing pauses, off the typing path).
 */

export interface ReadRequest {
  id: number;
  framework: ScriptFramework;
  text: string;
  files: Readonly<Record<string, string>>;
}

export type ReadAnswer =
  | { id: number; framework: 'taurus'; text: string; read: ScriptRead }
  | { id: number; framework: 'selenium'; text: string; read: SeleniumRead };

export function answerRead(request: ReadRequest): ReadAnswer {
  const { id, text } = request;
  return request.framework === 'selenium'
    ? { id, framework: 'selenium', text, read: readSelenium(text) }
    : { id, framework: 'taurus', text, read: readScript(text, request.files) };
}
