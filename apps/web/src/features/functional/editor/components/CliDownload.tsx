import type { FunctionalPlan } from '@aqa/plan';
import { TerminalSquare } from 'lucide-react';
import { useState } from 'react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useT } from '@/i18n';
import { downloadText } from '@/lib/download';
import { cn } from '@/lib/utils';
import { cliCommand, cliFileName, cliPlanText } from '../model/cli-plan';

const EXIT_CODES = [
  { code: 0, text: 'functional.editor.cliExit0' },
  { code: 1, text: 'functional.editor.cliExit1' },
  { code: 2, text: 'functional.editor.cliExit2' },
] as const;

/**
 * "Download for aqa test" (beyond docs/reference/02-running.md; docs/design.md §9: the same plan runs from
 * CI): the saved plan as `{test name}.json`, then how to run it — the command and its exit codes. A plan
 * with unsaved changes is not offered: the file must be the plan the app runs.
 */
export function CliDownloadButton({
  plan,
  dirty,
  disabled,
  className,
}: {
  /** The saved plan as the model reads it; null for a plan not saved yet. */
  plan: FunctionalPlan | null;
  dirty: boolean;
  disabled: boolean;
  className?: string;
}) {
  const t = useT();
  const notice = useNotice();
  const [downloaded, setDownloaded] = useState<string | null>(null);
  if (!plan) return null;

  const download = () => {
    const filename = cliFileName(plan.test_name);
    try {
      downloadText(cliPlanText(plan), filename, 'application/json;charset=utf-8');
      setDownloaded(filename);
    } catch (error) {
      notice.error(t('functional.editor.cliDownloadFailed', { message: (error as Error).message }));
    }
  };

  return (
    <>
      <Button
        variant="outline"
        disabled={disabled || dirty}
        onClick={download}
        title={dirty ? t('functional.editor.cliDirty') : t('functional.editor.cliHint')}
        className={className}
        data-testid="functional-cli-download"
      >
        <TerminalSquare />
        {t('functional.editor.cliDownload')}
      </Button>
      <Dialog open={downloaded !== null} onOpenChange={(open) => !open && setDownloaded(null)}>
        {downloaded !== null && (
          <DialogContent closeLabel={t('functional.editor.cliClose')} data-testid="functional-cli-help">
            <DialogHeader>
              <DialogTitle>{t('functional.editor.cliTitle')}</DialogTitle>
              <DialogDescription>{t('functional.editor.cliText', { file: downloaded })}</DialogDescription>
            </DialogHeader>
            <pre
              className="overflow-x-auto rounded-lg bg-muted px-3 py-2.5 font-mono text-[13px]"
              data-testid="functional-cli-command"
            >
              {cliCommand(downloaded)}
            </pre>
            <section className="space-y-1.5">
              <h3 className="text-sm font-semibold">{t('functional.editor.cliExitCodes')}</h3>
              <ul className="space-y-1 text-[13px] leading-5" data-testid="functional-cli-exit-codes">
                {EXIT_CODES.map(({ code, text }) => (
                  <li key={code} className="flex gap-2">
                    <span
                      className={cn(
                        'num w-4 shrink-0 font-mono font-semibold',
                        code === 0 ? 'text-success-text' : 'text-destructive-text',
                      )}
                    >
                      {code}
                    </span>
                    {t(text)}
                  </li>
                ))}
              </ul>
              <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.editor.cliJunit')}</p>
            </section>
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}
