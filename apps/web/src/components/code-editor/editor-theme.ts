import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * The editors' look, from the app's own colour tokens (apps/web/src/index.css), so light and dark follow
 * the theme the user chose without a second palette: keys blue, strings green, numbers and literals
 * amber, comments grey; a warned line amber, a refused one red (docs/reference/02-running.md §2).
 */

/** One line of text, in pixels: 20 px at 13 px type. */
export const LINE_HEIGHT_PX = 20;
/** Padding above and below the text, in pixels. */
export const EDITOR_PADDING_PX = 8;

export const editorTheme = EditorView.theme({
  '&': {
    height: '100%',
    color: 'var(--foreground)',
    backgroundColor: 'var(--background)',
    fontSize: '13px',
  },
  '&.cm-focused': { outline: 'none' },
  '&.cm-aqa-readonly': { backgroundColor: 'color-mix(in srgb, var(--muted) 40%, var(--background))' },
  '.cm-scroller': {
    fontFamily: 'var(--font-mono)',
    lineHeight: `${LINE_HEIGHT_PX}px`,
    overflow: 'auto',
  },
  '.cm-content': { padding: `${EDITOR_PADDING_PX}px 0`, caretColor: 'var(--foreground)' },
  '.cm-line': { padding: '0 12px 0 8px' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--foreground)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'color-mix(in srgb, var(--info) 28%, transparent)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--muted) 70%, transparent)' },
  '.cm-gutters': {
    backgroundColor: 'var(--muted)',
    color: 'var(--muted-foreground)',
    borderRight: '1px solid var(--border)',
    fontSize: '12px',
  },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--foreground)' },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 8px 0 12px', minWidth: '3ch' },
  '.cm-placeholder': { color: 'var(--muted-foreground)' },
  '.cm-aqa-marks .cm-gutterElement': { width: '16px', display: 'flex', justifyContent: 'center' },
  '.cm-aqa-marker': { fontWeight: '700', fontFamily: 'var(--font-sans)', cursor: 'default' },
  '.cm-aqa-marker-warning': { color: 'var(--warning-text)' },
  '.cm-aqa-marker-error': { color: 'var(--destructive-text)' },
  '.cm-aqa-line-warning': { backgroundColor: 'var(--warning-soft)' },
  '.cm-aqa-line-error': { backgroundColor: 'var(--destructive-soft)' },
});

const highlightStyle = HighlightStyle.define([
  { tag: [tags.definition(tags.propertyName), tags.propertyName], color: 'var(--info-text)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--success-text)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--warning-text)' },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment],
    color: 'var(--muted-foreground)',
    fontStyle: 'italic',
  },
  { tag: [tags.separator, tags.meta, tags.brace, tags.squareBracket], color: 'var(--muted-foreground)' },
  { tag: [tags.keyword, tags.typeName, tags.labelName], color: 'var(--accent-foreground)' },
]);

export const editorHighlighting = syntaxHighlighting(highlightStyle);
