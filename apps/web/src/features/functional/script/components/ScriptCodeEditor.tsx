import { MAX_TEXT_CHARS } from '@aqa/plan';
import type { Ref } from 'react';
import { CodeEditor, type CodeEditorHandle } from '@/components/code-editor/code-editor';
import type { LineMark } from '@/components/code-editor/line-marks';
import { useT } from '@/i18n';

/** docs/reference/02-running.md §9: the script editor shows 20 rows. */
export const SCRIPT_ROWS = 20;

/**
 * 'Script Content (YAML) *' (docs/reference/02-running.md §2): a YAML code editor of 20 rows with line
 * numbers, in which each line the reader warns about gets a marker and a tint (red for what it refuses),
 * holding at most MAX_TEXT_CHARS characters, the most a plan's script may have. The markers are
 * decoration: assistive technology reads the warning list the editor points at.
 */
export function ScriptCodeEditor({
  value,
  onChange,
  marks,
  marksFor,
  disabled,
  describedBy,
  editorRef,
}: {
  value: string;
  onChange: (value: string) => void;
  marks: readonly LineMark[];
  /** The text the marks were read from. */
  marksFor: string;
  disabled: boolean;
  describedBy?: string;
  editorRef: Ref<CodeEditorHandle>;
}) {
  const t = useT();
  return (
    <div data-testid="script-editor">
      <CodeEditor
        ref={editorRef}
        value={value}
        onChange={onChange}
        language="yaml"
        rows={SCRIPT_ROWS}
        maxLength={MAX_TEXT_CHARS}
        marks={marks}
        marksFor={marksFor}
        disabled={disabled}
        placeholder={t('functional.script.scriptPlaceholder')}
        aria-label={t('functional.script.scriptContent')}
        aria-describedby={describedBy}
        testId="script-content"
        markTestIdPrefix="script-line-marker"
      />
    </div>
  );
}
