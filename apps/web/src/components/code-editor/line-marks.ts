import {
  Facet,
  type RangeSet,
  RangeSetBuilder,
  StateEffect,
  StateField,
  type EditorState,
  type Extension,
  type Transaction,
} from '@codemirror/state';
import {
  Decoration,
  EditorView,
  GutterMarker,
  gutter,
  keymap,
  type Command,
  type DecorationSet,
} from '@codemirror/view';

/**
 * Marks on the lines a reader warns about or refuses (docs/reference/02-running.md §2 "Functional Script
 * Input screen": "each line the reader warns about gets a marker and a tint"): a tint on the line, a
 * marker in the gutter beside its number with the messages as its title, and F8 / Shift+F8 to move to
 * the next or previous marked line from the keyboard. Marks follow the text as it is edited until the
 * reader's next answer replaces them.
 */

export type MarkSeverity = 'warning' | 'error';

/** One problem on one line (1-based), as a reader reports it. */
export interface LineMark {
  line: number;
  severity: MarkSeverity;
  message: string;
}

/** The marks of one line: the worst severity and every message, in the order given. */
export interface MarkedLine {
  line: number;
  severity: MarkSeverity;
  messages: string[];
}

/** Replaces every mark of the editor. */
export const setLineMarks = StateEffect.define<readonly LineMark[]>();

/** Groups marks by line, drops lines the text does not have, and sorts them; an error outranks a warning. */
export function markedLines(marks: readonly LineMark[], lineCount: number): MarkedLine[] {
  const byLine = new Map<number, MarkedLine>();
  for (const mark of marks) {
    if (!Number.isInteger(mark.line) || mark.line < 1 || mark.line > lineCount) continue;
    const seen = byLine.get(mark.line);
    if (!seen) {
      byLine.set(mark.line, { line: mark.line, severity: mark.severity, messages: [mark.message] });
      continue;
    }
    if (mark.severity === 'error') seen.severity = 'error';
    if (!seen.messages.includes(mark.message)) seen.messages.push(mark.message);
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

class LineMarker extends GutterMarker {
  constructor(
    readonly marked: MarkedLine,
    readonly testIdPrefix: string | undefined,
  ) {
    super();
  }

  override eq(other: GutterMarker): boolean {
    return (
      other instanceof LineMarker &&
      other.marked.line === this.marked.line &&
      other.marked.severity === this.marked.severity &&
      other.marked.messages.join('\n') === this.marked.messages.join('\n') &&
      other.testIdPrefix === this.testIdPrefix
    );
  }

  override toDOM(): Node {
    const dom = document.createElement('span');
    dom.className = `cm-aqa-marker cm-aqa-marker-${this.marked.severity}`;
    dom.title = this.marked.messages.join('\n');
    dom.dataset.severity = this.marked.severity;
    // The line's number as the reader gave it: a test finds the marker of "line 12" by it.
    if (this.testIdPrefix) dom.dataset.testid = `${this.testIdPrefix}-${this.marked.line}`;
    // Read by the warning list below the editor (aria-describedby); the marker itself is decoration.
    dom.setAttribute('aria-hidden', 'true');
    dom.textContent = this.marked.severity === 'error' ? '✕' : '!';
    return dom;
  }
}

interface PlacedMark {
  /** Where the marked line starts now. */
  from: number;
  marked: MarkedLine;
}

interface MarksState {
  placed: PlacedMark[];
  lines: DecorationSet;
  markers: RangeSet<GutterMarker>;
}

function draw(placed: PlacedMark[], testIdPrefix: string | undefined): MarksState {
  const lines = new RangeSetBuilder<Decoration>();
  const markers = new RangeSetBuilder<GutterMarker>();
  for (const { from, marked } of placed) {
    const title = marked.messages.join('\n');
    lines.add(
      from,
      from,
      Decoration.line({ class: `cm-aqa-line-${marked.severity}`, attributes: { title } }),
    );
    markers.add(from, from, new LineMarker(marked, testIdPrefix));
  }
  return { placed, lines: lines.finish(), markers: markers.finish() };
}

function place(state: EditorState, marks: readonly LineMark[]): PlacedMark[] {
  return markedLines(marks, state.doc.lines).map((marked) => ({
    from: state.doc.line(marked.line).from,
    marked,
  }));
}

/**
 * The marks after an edit: each stays on the line its start moved to (the start of that line, since a
 * line mark belongs to a whole line); two that land on one line keep the first.
 */
function follow(placed: PlacedMark[], tr: Transaction): PlacedMark[] {
  const out: PlacedMark[] = [];
  for (const mark of placed) {
    const from = tr.state.doc.lineAt(tr.changes.mapPos(mark.from, 1)).from;
    if (out.at(-1)?.from === from) continue;
    out.push({ from, marked: mark.marked });
  }
  return out;
}

/** Names each gutter marker `{prefix}-{line}`, for the tests that look for the marker of a line. */
const markTestIdPrefix = Facet.define<string | undefined, string | undefined>({
  combine: (values) => values[0],
});

const marksField = StateField.define<MarksState>({
  create: () => draw([], undefined),
  update(value, tr) {
    const prefix = tr.state.facet(markTestIdPrefix);
    let next = value;
    if (tr.docChanged && value.placed.length > 0) next = draw(follow(value.placed, tr), prefix);
    for (const effect of tr.effects) {
      if (effect.is(setLineMarks)) next = draw(place(tr.state, effect.value), prefix);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.lines),
});

/** Moves the selection to the next (or previous) marked line, wrapping around; false when none is marked. */
function moveToMark(forward: boolean): Command {
  return (view) => {
    const starts: number[] = [];
    view.state.field(marksField).markers.between(0, view.state.doc.length, (from) => {
      starts.push(from);
    });
    if (starts.length === 0) return false;
    const line = view.state.doc.lineAt(view.state.selection.main.head).from;
    const next = forward
      ? (starts.find((from) => from > line) ?? starts[0])
      : (starts.findLast((from) => from < line) ?? starts[starts.length - 1]);
    if (next === undefined) return false;
    const target = view.state.doc.lineAt(next);
    view.dispatch({ selection: { anchor: target.from, head: target.to }, scrollIntoView: true });
    return true;
  };
}

/** The marks extension: the field, its gutter beside the line numbers, and F8 / Shift+F8. */
export function lineMarks(testIdPrefix?: string): Extension {
  return [
    markTestIdPrefix.of(testIdPrefix),
    marksField,
    gutter({ class: 'cm-aqa-marks', markers: (view) => view.state.field(marksField).markers }),
    keymap.of([
      { key: 'F8', run: moveToMark(true) },
      { key: 'Shift-F8', run: moveToMark(false) },
    ]),
  ];
}

/** The marked lines as the text now stands: line number, severity and the marker's title. */
export function currentMarks(state: EditorState): { line: number; severity: MarkSeverity; title: string }[] {
  const field = state.field(marksField, false);
  if (!field) return [];
  const out: { line: number; severity: MarkSeverity; title: string }[] = [];
  field.markers.between(0, state.doc.length, (from, _to, marker) => {
    if (marker instanceof LineMarker) {
      out.push({
        line: state.doc.lineAt(from).number,
        severity: marker.marked.severity,
        title: marker.marked.messages.join('\n'),
      });
    }
  });
  return out;
}
