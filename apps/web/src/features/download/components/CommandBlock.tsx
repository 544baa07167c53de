import { Copy } from 'lucide-react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { useI18n, type MessageKey } from '@/i18n';

/** One command block: its name, what to do with it, the text as it is copied, and a Copy button. */
export function CommandBlock({
  block,
  text,
}: {
  block: { id: string; title: MessageKey; hint: MessageKey };
  text: string;
}) {
  const { t } = useI18n();
  const notice = useNotice();
  const title = t(block.title);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      notice.success(t('download.copied'));
    } catch {
      notice.error(t('download.copyFailed'));
    }
  }

  return (
    <section
      aria-labelledby={`download-${block.id}-title`}
      className="space-y-2"
      data-testid={`download-${block.id}`}
    >
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="min-w-0 space-y-0.5">
          <h3 id={`download-${block.id}-title`} className="text-sm font-semibold">
            {title}
          </h3>
          <p className="text-xs text-muted-foreground">{t(block.hint)}</p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void copy()}
          aria-label={t('download.copyLabel', { what: title })}
          data-testid={`download-${block.id}-copy`}
        >
          <Copy aria-hidden />
          {t('download.copy')}
        </Button>
      </div>
      <pre
        className="overflow-x-auto rounded-lg border border-border bg-muted px-4 py-3 font-mono text-[13px] leading-relaxed"
        data-testid={`download-${block.id}-code`}
      >
        <code>{text}</code>
      </pre>
    </section>
  );
}
