import { Mic, Square } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { VoiceCommand } from '../hooks/useVoiceCommand';

export type VoiceNotice = 'filled' | 'noDemo' | null;

/** The Voice Command box of docs/reference/01-authoring.md §2: read-only text, a Listen/Stop toggle and the hint. */
export function VoiceCommandBox({
  voice,
  notice,
  onToggle,
}: {
  voice: VoiceCommand;
  notice: VoiceNotice;
  onToggle: () => void;
}) {
  const t = useT();
  const listening = voice.state === 'listening';
  const text = listening
    ? t('voice.listening')
    : voice.outcome?.kind === 'transcript'
      ? voice.outcome.text
      : voice.outcome?.kind === 'error'
        ? t('voice.failed')
        : '';
  const failed = !listening && voice.outcome?.kind === 'error';

  return (
    <Card className="p-4" data-testid="voice-command">
      <div className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2.5">
          <span
            className={cn(
              'flex size-8 shrink-0 items-center justify-center rounded-lg',
              listening
                ? 'animate-pulse-ring bg-destructive-soft text-destructive'
                : 'bg-accent text-accent-foreground',
            )}
          >
            <Mic aria-hidden className="size-4" />
          </span>
          <h2 className="truncate text-sm font-semibold">{t('voice.title')}</h2>
        </div>
        <Button
          size="sm"
          variant={listening ? 'destructive' : 'outline'}
          onClick={onToggle}
          aria-pressed={listening}
          data-testid="voice-toggle"
        >
          {listening ? <Square className="size-3.5 fill-current" /> : <Mic />}
          {listening ? t('voice.stop') : t('voice.listen')}
        </Button>
      </div>
      <Input
        readOnly
        value={text}
        placeholder={t('voice.placeholder')}
        aria-label={t('voice.fieldLabel')}
        aria-live="polite"
        data-testid="voice-text"
        className={cn('mt-3', failed && 'text-destructive', listening && 'text-muted-foreground italic')}
      />
      <p className="mt-2 text-xs leading-5 text-muted-foreground">{t('voice.hint')}</p>
      {notice && (
        <p
          role="status"
          data-testid="voice-notice"
          className={cn(
            'mt-1 text-xs leading-5',
            notice === 'filled' ? 'text-success-text' : 'text-warning-text',
          )}
        >
          {notice === 'filled' ? t('voice.filled') : t('voice.noDemo')}
        </p>
      )}
    </Card>
  );
}
