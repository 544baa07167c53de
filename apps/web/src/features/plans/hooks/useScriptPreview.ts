import { generateScript, scriptFileName, type ScriptWarning } from '@aqa/converters';
import type { Tool } from '@aqa/plan';
import { useDeferredValue, useMemo, useState } from 'react';
import { checkScriptRequest } from '../model/form-to-plan';
import type { PlanForm } from '../model/plan-form';

/**
 * The Generated Script panel's text. Before the first Generate there is none; after it the script is
 * written in the browser by the same generators the server uses, and follows every change to the plan
 * ("live"); once the user edits it by hand it stays as they wrote it ("edited") until they regenerate.
 */
export type ScriptMode = 'none' | 'live' | 'edited';

export interface GeneratedPreview {
  script: string;
  warnings: ScriptWarning[];
  filename: string;
}

export interface ScriptPreview {
  mode: ScriptMode;
  /** What the panel shows, downloads, copies and saves; '' when there is none. */
  script: string;
  /** Generator warnings of the shown live script (none for an edited one). */
  warnings: ScriptWarning[];
  /** The download name for the current tool and plan name (testplan_{tool}_{plan}.{ext} by default). */
  filename: string;
  /** Live, but the plan no longer makes a valid script: the last valid one is shown. */
  stale: boolean;
  setMode: (mode: ScriptMode) => void;
  /** Puts the panel in edited mode with this text. */
  edit: (text: string) => void;
}

export function previewScript(form: PlanForm): GeneratedPreview | null {
  const check = checkScriptRequest(form);
  if (!check.ok) return null;
  const { files, warnings } = generateScript(check.request, check.request.tool);
  const file = files[0];
  if (!file) return null;
  return { script: file.content, warnings, filename: file.name };
}

export function useScriptPreview(
  form: PlanForm,
  initial: { mode: ScriptMode; text: string },
  fileName: (tool: Tool, planName: string) => string = scriptFileName,
): ScriptPreview {
  const [mode, setMode] = useState<ScriptMode>(initial.mode);
  const [editedText, setEditedText] = useState(initial.text);
  // Typing stays smooth on long plans: the script follows a moment behind the form when React is busy.
  const deferred = useDeferredValue(form);
  const current = useMemo(() => (mode === 'live' ? previewScript(deferred) : null), [mode, deferred]);

  // The last valid script, kept while the plan is being edited into a valid state again.
  const [lastGood, setLastGood] = useState<GeneratedPreview | null>(null);
  if (current && current !== lastGood) setLastGood(current);
  const shown = current ?? (mode === 'live' ? lastGood : null);

  const filename = fileName(form.tool, form.name);
  if (mode === 'edited') {
    return {
      mode,
      script: editedText,
      warnings: [],
      filename,
      stale: false,
      setMode,
      edit: setEditedText,
    };
  }
  return {
    mode,
    script: shown?.script ?? '',
    warnings: shown?.warnings ?? [],
    filename,
    stale: mode === 'live' && current === null && shown !== null,
    setMode,
    edit: (text) => {
      setEditedText(text);
      setMode('edited');
    },
  };
}
