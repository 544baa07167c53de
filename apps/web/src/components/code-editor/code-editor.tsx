import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
} from '@codemirror/view';
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { EDITOR_PADDING_PX, editorHighlighting, editorTheme, LINE_HEIGHT_PX } from './editor-theme';
import { fromPage, lengthLimit, refusedEdit, type RefusedEdit } from './length-limit';
import { lineMarks, setLineMarks, type LineMark } from './line-marks';

export type CodeLanguage = 'yaml' | 'json' | 'text';

export interface CodeEditorHandle {
  focus: () => void;
  /** Selects a line (1-based) and scrolls it into view, as a warning's line button does. */
  selectLine: (line: number) => void;
}

/** The editor's host element: its text is readable from the page (e2e/editor-text.ts reads it so). */
export interface CodeEditorHost extends HTMLDivElement {
  readonly editorText: string;
}

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  /** Visible lines: the height of the spec's "16-row" or "20-row" text area. */
  rows: number;
  /** The longest text accepted, in characters (MAX_TEXT_CHARS for a script or a body). */
  maxLength: number;
  /** Marks on lines (a reader's warnings and refusals). */
  marks?: readonly LineMark[];
  /** The text the marks were read from: marks for another text wait for the reader's next answer. */
  marksFor?: string;
  readOnly?: boolean;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: boolean | undefined;
  'aria-required'?: boolean | undefined;
  /** On the focusable text (the textbox), as the text area's was. */
  testId: string;
  /** Gutter markers are named `{markTestIdPrefix}-{line}`. */
  markTestIdPrefix?: string;
  className?: string;
  ref?: Ref<CodeEditorHandle>;
}

const LANGUAGES: Record<CodeLanguage, () => Extension> = {
  yaml: () => yaml(),
  json: () => json(),
  text: () => [],
};

/** The smallest change that turns `from` into `to`: the part between their common start and end. */
export function textChange(from: string, to: string): { from: number; to: number; insert: string } {
  const limit = Math.min(from.length, to.length);
  let start = 0;
  while (start < limit && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < limit - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end))
    end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

/** What the editor's text box says about itself, and whether it may be edited. */
interface Access {
  testId: string;
  id: string | undefined;
  label: string | undefined;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  readOnly: boolean;
  disabled: boolean;
}

function attributesOf(access: Access): Extension {
  return EditorView.contentAttributes.of({
    'data-testid': access.testId,
    ...(access.id ? { id: access.id } : {}),
    ...(access.label ? { 'aria-label': access.label } : {}),
    ...(access.describedBy ? { 'aria-describedby': access.describedBy } : {}),
    ...(access.invalid ? { 'aria-invalid': 'true' } : {}),
    ...(access.required ? { 'aria-required': 'true' } : {}),
    ...(access.readOnly || access.disabled ? { 'aria-readonly': 'true' } : {}),
    ...(access.disabled ? { 'aria-disabled': 'true' } : {}),
    spellcheck: 'false',
    autocapitalize: 'off',
    autocorrect: 'off',
  });
}

function accessOf(access: Access): Extension {
  return [
    EditorState.readOnly.of(access.readOnly || access.disabled),
    EditorView.editable.of(!access.disabled),
    access.readOnly ? EditorView.editorAttributes.of({ class: 'cm-aqa-readonly' }) : [],
  ];
}

/**
 * A code editor (CodeMirror 6) for scripts, YAML and JSON bodies: line numbers, syntax colours, marks
 * on the lines a reader warns about, undo, and a length limit that refuses an over-long paste whole and
 * says so (docs/reference/01-authoring.md §9 "Editors"). It draws only the lines in view, so a text of
 * a million characters types as quickly as a short one; what reads the text (a script reader, a
 * generator) is the page's business and runs after typing pauses, off the typing path. Tab is left to
 * move the focus, as in a text area, so keyboard users are never trapped; F8 / Shift+F8 go to the next
 * or previous marked line.
 */
export function CodeEditor(props: CodeEditorProps) {
  const { value, rows, maxLength, testId, className, disabled = false, ref } = props;
  const { t, locale } = useI18n();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  /** The text the page and the editor last agreed on. */
  const known = useRef(value);
  /** The props of the last render, for the editor's listener, which is made once. */
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const [refused, setRefused] = useState<RefusedEdit | null>(null);
  const [compartments] = useState(() => ({
    language: new Compartment(),
    access: new Compartment(),
    attributes: new Compartment(),
    limit: new Compartment(),
    placeholder: new Compartment(),
  }));
  const readOnly = Boolean(props.readOnly);
  const id = props.id;
  const label = props['aria-label'];
  const describedBy = props['aria-describedby'];
  const invalid = Boolean(props['aria-invalid']);
  const required = Boolean(props['aria-required']);
  const access = useMemo<Access>(
    () => ({ testId, id, label, describedBy, invalid, required, readOnly, disabled }),
    [testId, id, label, describedBy, invalid, required, readOnly, disabled],
  );
  const initialAccess = useRef(access);

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const editor = new EditorView({
      parent,
      state: EditorState.create({
        doc: known.current,
        extensions: [
          lineNumbers(),
          lineMarks(latest.current.markTestIdPrefix),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          editorTheme,
          editorHighlighting,
          compartments.language.of(LANGUAGES[latest.current.language]()),
          compartments.access.of(accessOf(initialAccess.current)),
          compartments.attributes.of(attributesOf(initialAccess.current)),
          compartments.limit.of(lengthLimit(latest.current.maxLength)),
          compartments.placeholder.of(
            latest.current.placeholder ? placeholderText(latest.current.placeholder) : [],
          ),
          EditorView.updateListener.of((update) => {
            for (const tr of update.transactions) {
              for (const effect of tr.effects) if (effect.is(refusedEdit)) setRefused(effect.value);
            }
            if (!update.docChanged) return;
            if (update.transactions.every((tr) => tr.annotation(fromPage))) return;
            setRefused(null);
            const text = update.state.doc.toString();
            known.current = text;
            latest.current.onChange?.(text);
          }),
        ],
      }),
    });
    Object.defineProperty(parent, 'editorText', {
      configurable: true,
      get: () => editor.state.doc.toString(),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later props reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The page changed the text (a sample, a file, a list edit): the editor takes the smallest change.
  useEffect(() => {
    const editor = view.current;
    if (!editor || value === known.current) return;
    const current = editor.state.doc.toString();
    known.current = value;
    if (current === value) return;
    editor.dispatch({ changes: textChange(current, value), annotations: fromPage.of(true) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: compartments.language.reconfigure(LANGUAGES[props.language]()),
    });
  }, [compartments, props.language]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        compartments.access.reconfigure(accessOf(access)),
        compartments.attributes.reconfigure(attributesOf(access)),
      ],
    });
  }, [compartments, access]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        compartments.limit.reconfigure(lengthLimit(maxLength)),
        compartments.placeholder.reconfigure(props.placeholder ? placeholderText(props.placeholder) : []),
      ],
    });
  }, [compartments, maxLength, props.placeholder]);

  // Marks read from another text than the one shown wait for the reader's answer on this one.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    if (props.marksFor !== undefined && props.marksFor !== known.current) return;
    editor.dispatch({ effects: setLineMarks.of(props.marks ?? []) });
  }, [props.marks, props.marksFor]);

  useImperativeHandle(
    ref,
    () => ({
      focus: () => view.current?.focus(),
      selectLine: (number: number) => {
        const editor = view.current;
        if (!editor) return;
        const line = editor.state.doc.line(Math.min(Math.max(1, number), editor.state.doc.lines));
        editor.focus();
        editor.dispatch({
          selection: { anchor: line.from, head: line.to },
          effects: EditorView.scrollIntoView(line.from, { y: 'center' }),
        });
      },
    }),
    [],
  );

  const count = (n: number) => n.toLocaleString(locale);
  const over = value.length > maxLength;
  // A refused edit says what it would have made; else a text already over the limit (a file) says so.
  const tooLong = refused
    ? t('codeEditor.refused', { length: count(refused.length), max: count(refused.max) })
    : over
      ? t('codeEditor.overLimit', { length: count(value.length), max: count(maxLength) })
      : null;

  return (
    <div className="space-y-1.5">
      <div
        ref={host}
        data-code-editor=""
        data-rows={rows}
        className={cn(
          'overflow-hidden rounded-lg border border-input bg-background resize-y focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/40',
          (props['aria-invalid'] || over) && 'border-destructive',
          disabled && 'opacity-60',
          className,
        )}
        style={{ height: rows * LINE_HEIGHT_PX + 2 * EDITOR_PADDING_PX + 2, minHeight: 3 * LINE_HEIGHT_PX }}
      />
      {tooLong && (
        <p role="alert" className="text-[13px] leading-5 text-destructive" data-testid={`${testId}-too-long`}>
          {tooLong}
        </p>
      )}
    </div>
  );
}
