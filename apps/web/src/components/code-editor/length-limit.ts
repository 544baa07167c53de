import { Annotation, EditorState, StateEffect, type Extension } from '@codemirror/state';

/**
 * The editor's length limit (docs/reference/01-authoring.md §9 "Editors"): an edit by the user that
 * would make the text longer than `max` characters is refused whole — nothing of it is added, and the
 * screen says how long the text would have been and what the limit is — so that a 5 MB paste never
 * reaches the page, the reader or the server, which refuses such a plan anyway (MAX_TEXT_CHARS). Edits
 * that shorten an over-long text (one loaded from a file, say) are let through.
 */

/** An edit that was refused: the length the text would have had, and the limit. */
export interface RefusedEdit {
  length: number;
  max: number;
}

export const refusedEdit = StateEffect.define<RefusedEdit>();

/** Marks a change that brings the editor up to date with its value from the page, never refused. */
export const fromPage = Annotation.define<boolean>();

export function lengthLimit(max: number): Extension {
  return EditorState.transactionFilter.of((tr) => {
    if (!tr.docChanged || tr.annotation(fromPage)) return tr;
    const length = tr.newDoc.length;
    if (length <= max || length <= tr.startState.doc.length) return tr;
    return { effects: refusedEdit.of({ length, max }) };
  });
}
