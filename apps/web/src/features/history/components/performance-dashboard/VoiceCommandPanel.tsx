import { Mic, Send, Square } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appliedMessage, describeChange, type ParsedUpdate, requestTextCommand } from '@/features/plans';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { useDictation } from '../../hooks/useDictation';
import { callErrorMessage } from '@/features/call-editor';

type Outcome =
  { kind: 'success'; message: string; updates: ParsedUpdate[] } | { kind: 'error'; message: string };

/**
 * The Voice Command panel of a plan card (docs/reference/02-running.md §2): a command typed or spoken (Web Speech API; where the
 * browser has none, the microphone says so in an error notice) goes to the text-command call with the plan's id; the answer shows in green or red with
 * the changes applied. `onApplied` lets the dashboard show the plan as changed.
 */
export function VoiceCommandPanel({ planId, onApplied }: { planId: string; onApplied: () => void }) {
  const { t, language } = useI18n();
  const notice = useNotice();
  const [command, setCommand] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const dictation = useDictation(language === 'ko' ? 'ko-KR' : 'en-US', setCommand, () =>
    notice.error(t('voice.unsupported')),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = command.trim();
    if (busy || !text) return;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await requestTextCommand({ plan_id: planId, command: text });
      const updates = answer.parsed_updates;
      // The changes worded in the screen's language (the server's message is English).
      const message = updates.length > 0 ? appliedMessage(updates, t) : answer.message;
      setOutcome({ kind: 'success', message, updates });
      setCommand('');
      if (answer.parsed_updates.length > 0) onApplied();
    } catch (error) {
      setOutcome({ kind: 'error', message: callErrorMessage(error, t) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2 rounded-lg border border-border bg-muted/30 p-3" data-testid="voice-panel">
      <form className="flex gap-2" onSubmit={(event) => void submit(event)}>
        <Input
          aria-label={t('history.voice.label')}
          placeholder={dictation.listening ? t('voice.listening') : t('history.voice.placeholder')}
          value={command}
          onChange={(event) => setCommand(event.target.value)}
          className="h-9 min-w-0 flex-1"
          data-testid="voice-command-input"
        />
        <Button
          type="button"
          variant={dictation.listening ? 'destructive' : 'outline'}
          size="icon-sm"
          className="size-9"
          onClick={dictation.toggle}
          aria-pressed={dictation.listening}
          aria-label={dictation.listening ? t('voice.stop') : t('history.voice.speak')}
          data-testid="voice-mic"
        >
          {dictation.listening ? <Square className="size-3.5 fill-current" /> : <Mic />}
        </Button>
        <Button
          type="submit"
          size="sm"
          className="h-9"
          disabled={busy || !command.trim()}
          data-testid="voice-command-send"
        >
          {busy ? <Spinner /> : <Send />}
          <span className="sr-only sm:not-sr-only">{t('history.voice.send')}</span>
        </Button>
      </form>
      <p className="text-xs leading-5 text-muted-foreground">{t('plans.commandExamples')}</p>
      {dictation.failed && <p className="text-xs text-destructive-text">{t('voice.failed')}</p>}
      {outcome && (
        <div role={outcome.kind === 'error' ? 'alert' : 'status'} className="space-y-1">
          <p
            className={cn(
              'text-[13px] font-medium',
              outcome.kind === 'error' ? 'text-destructive-text' : 'text-success-text',
            )}
            data-testid="voice-command-message"
            data-kind={outcome.kind}
          >
            {outcome.message}
          </p>
          {outcome.kind === 'success' && outcome.updates.length > 0 && (
            <ul className="space-y-0.5 text-xs" data-testid="voice-command-changes">
              {outcome.updates.map((update, index) => (
                <li key={`${update.field}-${index}`}>{describeChange(update, t)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
