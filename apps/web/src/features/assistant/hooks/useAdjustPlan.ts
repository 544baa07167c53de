import { useState, type RefObject } from 'react';
import { isPlanProblem, type CurrentPlanSource } from '../current-plan';
import { previewCommand, samePlan, type AdjustPreview, type EditedPlan } from '../model/adjust';

/**
 * The state of "Adjust current test plan" (docs/design.md §10): the command, its preview against the plan
 * on screen, Apply through the editor's own state, and Undo to exactly what the editor held. It lives in
 * the panel, so closing and reopening James keeps the Undo.
 */

export type AdjustNotice =
  | { kind: 'notReady'; problem: string }
  | { kind: 'changedSince' }
  | { kind: 'applied'; count: number }
  | { kind: 'undone' }
  | { kind: 'undoGone' };

interface Applied {
  source: RefObject<CurrentPlanSource>;
  undo: () => void;
}

function readEdited(source: CurrentPlanSource): EditedPlan | { problem: string } {
  if (source.kind === 'performance') {
    const plan = source.read();
    return isPlanProblem(plan) ? plan : { kind: 'performance', plan };
  }
  const plan = source.read();
  return isPlanProblem(plan) ? plan : { kind: 'functional', plan };
}

function applyEdited(source: CurrentPlanSource, edited: EditedPlan): void {
  if (source.kind === 'performance' && edited.kind === 'performance') source.apply(edited.plan);
  else if (source.kind === 'functional' && edited.kind === 'functional') source.apply(edited.plan);
}

export function useAdjustPlan(current: RefObject<CurrentPlanSource> | null) {
  const [command, setCommand] = useState('');
  const [preview, setPreview] = useState<{
    source: RefObject<CurrentPlanSource>;
    result: AdjustPreview;
  } | null>(null);
  const [notice, setNotice] = useState<AdjustNotice | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);

  /** The preview of `text` (the command by default) against the plan on screen now. */
  const showPreview = (text: string = command): void => {
    if (!current || text.trim() === '') return;
    const read = readEdited(current.current);
    if (isPlanProblem(read)) {
      setPreview(null);
      setNotice({ kind: 'notReady', problem: read.problem });
      return;
    }
    setNotice(null);
    setPreview({ source: current, result: previewCommand(text, read) });
  };

  const apply = (): void => {
    if (!preview || !current || preview.source !== current) {
      setPreview(null);
      return;
    }
    const source = current.current;
    const now = readEdited(source);
    // The user may have edited the plan since the preview: what was shown is no longer what would happen.
    if (isPlanProblem(now) || !samePlan(now, preview.result.before)) {
      showPreview();
      setNotice(isPlanProblem(now) ? { kind: 'notReady', problem: now.problem } : { kind: 'changedSince' });
      return;
    }
    const undo = source.checkpoint();
    applyEdited(source, preview.result.after);
    setApplied({ source: current, undo });
    setNotice({ kind: 'applied', count: preview.result.rows.length });
    setPreview(null);
    setCommand('');
  };

  const undo = (): void => {
    if (!applied) return;
    if (applied.source !== current) setNotice({ kind: 'undoGone' });
    else {
      applied.undo();
      setNotice({ kind: 'undone' });
    }
    setApplied(null);
  };

  const discard = (): void => {
    setPreview(null);
    setNotice(null);
  };

  return {
    command,
    setCommand,
    preview: preview?.source === current ? preview.result : null,
    notice,
    canUndo: applied !== null && applied.source === current,
    showPreview,
    apply,
    undo,
    discard,
  };
}

export type AdjustPlan = ReturnType<typeof useAdjustPlan>;
