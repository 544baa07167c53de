import type { AskAnswer } from '@aqa/plan';
import { Database, Send, Sparkles, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import type { ConversationState } from '../hooks/useConversation';
import { FigureList, LinkList } from './FiguresAndLinks';
import { callErrorMessage } from '@/features/call-editor';

const EXAMPLES = [
  'assistant.ask.example1',
  'assistant.ask.example2',
  'assistant.ask.example3',
  'assistant.ask.example4',
] as const;

/**
 * "Ask James" (docs/design.md §10): questions about the user's own tests and the answers, each labelled
 * with where it came from, with the figures and links it used; when James did not understand, the
 * questions it can answer, to ask with one click.
 */
export function AskView({
  conversation,
  onNavigate,
}: {
  conversation: ConversationState;
  onNavigate: () => void;
}) {
  const t = useT();
  const [question, setQuestion] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const { open, turns, pending, load } = conversation;

  useEffect(() => open(), [open]);
  useEffect(() => {
    // The newest turn in view (jsdom has no scrolling).
    const last = end.current;
    if (last && typeof last.scrollIntoView === 'function') last.scrollIntoView({ block: 'nearest' });
  }, [turns.length, pending]);

  const ask = (text: string) => {
    setQuestion('');
    void conversation.ask(text).then((answer) => {
      // A question that failed goes back into the field, to send again.
      if (!answer) setQuestion((current) => current || text);
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (question.trim() && !conversation.busy) ask(question);
  };

  return (
    <div className="flex flex-col gap-3">
      {load === 'loading' && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner />
          {t('assistant.ask.loading')}
        </p>
      )}
      {typeof load === 'object' && (
        <Alert variant="warning">
          {t('assistant.ask.loadFailed', { message: callErrorMessage(load.failed, t) })}
        </Alert>
      )}
      {load !== 'loading' && turns.length === 0 && !pending && (
        <div className="space-y-2">
          <p className="text-sm text-muted-foreground">{t('assistant.ask.empty')}</p>
          <Suggestions questions={EXAMPLES.map((key) => t(key))} onAsk={ask} disabled={conversation.busy} />
        </div>
      )}

      <ol className="space-y-3" aria-label={t('assistant.ask.conversation')} data-testid="james-conversation">
        {turns.map((turn) => (
          <li key={turn.id} className="space-y-2">
            <Question text={turn.question} />
            <Answer answer={turn.answer} onAsk={ask} busy={conversation.busy} onNavigate={onNavigate} />
          </li>
        ))}
        {pending && (
          <li className="space-y-2">
            <Question text={pending.question} />
            {pending.error === undefined ? (
              <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
                <Spinner />
                {t('assistant.ask.sending')}
              </p>
            ) : (
              <Alert variant="destructive">
                {t('assistant.ask.failed', { message: callErrorMessage(pending.error, t) })}
              </Alert>
            )}
          </li>
        )}
      </ol>
      <div ref={end} />

      <form className="flex gap-2" onSubmit={submit}>
        <Input
          aria-label={t('assistant.ask.label')}
          placeholder={t('assistant.ask.placeholder')}
          value={question}
          maxLength={2000}
          onChange={(event) => setQuestion(event.target.value)}
          data-testid="james-ask-input"
        />
        <Button type="submit" disabled={!question.trim() || conversation.busy} data-testid="james-ask-send">
          {conversation.busy ? <Spinner /> : <Send />}
          <span className="max-sm:sr-only">{t('assistant.ask.send')}</span>
        </Button>
      </form>
      {turns.length > 0 && (
        <div className="flex justify-end">
          <Button type="button" size="sm" variant="ghost" onClick={() => void conversation.clear()}>
            <Trash2 />
            {t('assistant.ask.clear')}
          </Button>
        </div>
      )}
      {conversation.clearError !== null && (
        <Alert variant="destructive">
          {t('assistant.ask.clearFailed', { message: callErrorMessage(conversation.clearError, t) })}
        </Alert>
      )}
    </div>
  );
}

function Question({ text }: { text: string }) {
  const t = useT();
  return (
    <div
      className="ml-8 rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground"
      data-testid="james-question"
    >
      <span className="sr-only">{t('assistant.ask.you')}: </span>
      {text}
    </div>
  );
}

function Answer({
  answer,
  onAsk,
  busy,
  onNavigate,
}: {
  answer: AskAnswer;
  onAsk: (question: string) => void;
  busy: boolean;
  onNavigate: () => void;
}) {
  const t = useT();
  const fromModel = answer.source === 'model';
  return (
    <div
      className="mr-4 space-y-2 rounded-lg border border-border bg-card p-3"
      data-testid="james-answer"
      data-source={answer.source}
    >
      <p
        className="flex items-center gap-1 text-xs font-medium text-muted-foreground"
        data-testid="james-answer-source"
      >
        {fromModel ? (
          <Sparkles aria-hidden className="size-3.5" />
        ) : (
          <Database aria-hidden className="size-3.5" />
        )}
        {!fromModel
          ? t('assistant.source.analyser')
          : answer.model
            ? t('assistant.source.model', { name: answer.model })
            : t('assistant.source.modelUnnamed')}
      </p>
      <p className="whitespace-pre-line text-sm leading-6">{answer.answer}</p>
      <FigureList figures={answer.figures} />
      <LinkList links={answer.links} onNavigate={onNavigate} />
      {!answer.understood && (answer.suggestions?.length ?? 0) > 0 && (
        <div className="space-y-1.5">
          <p className="text-[13px] text-muted-foreground">{t('assistant.ask.notUnderstood')}</p>
          <Suggestions questions={answer.suggestions ?? []} onAsk={onAsk} disabled={busy} />
        </div>
      )}
    </div>
  );
}

function Suggestions({
  questions,
  onAsk,
  disabled,
}: {
  questions: readonly string[];
  onAsk: (question: string) => void;
  disabled: boolean;
}) {
  return (
    <ul className="flex flex-wrap gap-1.5" data-testid="james-suggestions">
      {questions.map((question) => (
        <li key={question}>
          <Button
            type="button"
            size="pill"
            variant="outline"
            disabled={disabled}
            onClick={() => onAsk(question)}
            className="h-auto min-h-8 whitespace-normal py-1 text-left"
          >
            {question}
          </Button>
        </li>
      ))}
    </ul>
  );
}
