import type { TaurusWarning } from '@aqa/converters';
import { TriangleAlert } from 'lucide-react';
import { useId, useRef, type UIEvent } from 'react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { tokenizeYamlLine, type TokenKind } from '../model/yaml-highlight';

/** docs/reference/02-running.md §9: the script textarea has 20 rows. */
export const SCRIPT_ROWS = 20;

const TOKEN_CLASS: Record<TokenKind, string> = {
  comment: 'text-muted-foreground italic',
  key: 'text-info-text',
  string: 'text-success-text',
  literal: 'text-warning-text',
  dash: 'text-muted-foreground',
  plain: '',
};

/**
 * 'Script Content (YAML) *' (docs/reference/02-running.md §2): a plain 20-row textarea, its text drawn
 * transparent over a highlighted copy, with line numbers; a line the reader warns about gets a marker
 * in the gutter and a tint. The textarea stays the control (keyboard, screen readers, paste); the copy
 * is hidden from assistive technology, which reads the warning list instead.
 */
export function ScriptCodeEditor({
  value,
  onChange,
  warningLines,
  errorLine,
  disabled,
  describedBy,
  textareaRef,
}: {
  value: string;
  onChange: (value: string) => void;
  warningLines: ReadonlyMap<number, readonly TaurusWarning[]>;
  /** The line a YAML error is on. */
  errorLine: number | undefined;
  disabled: boolean;
  describedBy?: string;
  textareaRef: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const t = useT();
  const id = useId();
  const copy = useRef<HTMLPreElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = value.split('\n');

  const onScroll = (event: UIEvent<HTMLTextAreaElement>) => {
    const { scrollTop, scrollLeft } = event.currentTarget;
    if (copy.current) {
      copy.current.scrollTop = scrollTop;
      copy.current.scrollLeft = scrollLeft;
    }
    if (gutter.current) gutter.current.scrollTop = scrollTop;
  };

  // Shared by the textarea and its copy so that every line sits at the same place.
  const text = 'font-mono text-[13px] leading-5 whitespace-pre px-3 py-2';
  const lineTone = (n: number) =>
    n === errorLine ? 'bg-destructive-soft' : warningLines.has(n) ? 'bg-warning-soft' : undefined;

  return (
    <div
      className={cn(
        'relative flex overflow-hidden rounded-lg border border-input bg-background focus-within:ring-2 focus-within:ring-ring/40',
        disabled && 'opacity-60',
      )}
      data-testid="script-editor"
    >
      <div
        ref={gutter}
        aria-hidden
        className="w-12 shrink-0 overflow-hidden border-r border-border bg-muted/40 py-2 text-right font-mono text-[12px] leading-5 text-muted-foreground select-none"
        style={{ height: `calc(${SCRIPT_ROWS} * 1.25rem + 1rem)` }}
      >
        {lines.map((_, index) => {
          const n = index + 1;
          const warned = warningLines.has(n) || n === errorLine;
          return (
            <div
              key={n}
              className={cn('flex items-center justify-end gap-0.5 pr-2', lineTone(n))}
              data-testid={warned ? `script-line-marker-${n}` : undefined}
            >
              {warned && (
                <TriangleAlert
                  className={cn('size-3', n === errorLine ? 'text-destructive-text' : 'text-warning-text')}
                />
              )}
              <span className="num">{n}</span>
            </div>
          );
        })}
      </div>
      <div className="relative min-w-0 flex-1">
        <pre
          ref={copy}
          aria-hidden
          className={cn(text, 'pointer-events-none absolute inset-0 m-0 overflow-hidden')}
          data-testid="script-highlight"
        >
          {lines.map((line, index) => (
            <div key={index} className={cn('min-h-5', lineTone(index + 1))}>
              {tokenizeYamlLine(line).map((token, i) => (
                <span key={i} className={TOKEN_CLASS[token.kind]} data-token={token.kind}>
                  {token.text}
                </span>
              ))}
              {line === '' && ' '}
            </div>
          ))}
        </pre>
        <textarea
          ref={textareaRef}
          id={`${id}-script`}
          aria-label={t('functional.script.scriptContent')}
          aria-describedby={describedBy}
          rows={SCRIPT_ROWS}
          wrap="off"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          disabled={disabled}
          value={value}
          placeholder={t('functional.script.scriptPlaceholder')}
          onChange={(event) => onChange(event.target.value)}
          onScroll={onScroll}
          className={cn(
            text,
            'relative block w-full resize-none overflow-auto bg-transparent text-transparent caret-foreground outline-none placeholder:text-muted-foreground selection:bg-info/25 selection:text-transparent',
          )}
          data-testid="script-content"
        />
      </div>
    </div>
  );
}
