import {
  FEEDBACK_ERRORS,
  FEEDBACK_KINDS,
  FEEDBACK_MESSAGE_MAX,
  FUNCTIONAL_TEST_ID_PREFIX,
  type Feedback,
  type FeedbackKind,
} from '@aqa/plan';
import { contract } from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Bug, Lightbulb, MessageCircleQuestion, Send, type LucideIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { FormField } from '@/components/form-field';
import { PageHeader } from '@/components/page-header';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { useI18n, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { screenPath } from '@/lib/screens';
import { invalidateRoutes, useRouteQuery, viewOf } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { sendFeedback } from '../queries/feedback-api';

const KIND_ICONS: Record<FeedbackKind, LucideIcon> = {
  bug: Bug,
  idea: Lightbulb,
  question: MessageCircleQuestion,
};

/** The server's sentences (packages/plan/src/feedback.ts) as keys of the user's language. */
const SERVER_MESSAGE_KEYS: Record<string, MessageKey> = {
  [FEEDBACK_ERRORS.messageRequired]: 'feedback.messageRequired',
  [FEEDBACK_ERRORS.messageTooLong]: 'feedback.messageTooLong',
  [FEEDBACK_ERRORS.runNotFound]: 'feedback.runNotFound',
};

type Field = 'message' | 'page' | 'run_id';

function serverText(message: string, t: Translate): string {
  const key = SERVER_MESSAGE_KEYS[message];
  return key === undefined ? message : t(key, { max: FEEDBACK_MESSAGE_MAX });
}

/** Problems the server named, by field; a run id that is not the user's is a 404 about run_id. */
function serverProblems(error: unknown, t: Translate): Partial<Record<Field, string>> {
  if (!(error instanceof ApiError)) return {};
  if (error.code === 'RUN_NOT_FOUND') return { run_id: serverText(error.detail, t) };
  const problems: Partial<Record<Field, string>> = {};
  for (const { field, message } of error.fieldErrors) {
    if (field === 'message' || field === 'page' || field === 'run_id')
      problems[field] ??= serverText(message, t);
  }
  return problems;
}

/** The page the user came from (the sidebar link carries it), and the run when it was a result page. */
function cameFrom(state: unknown): { page: string; runId: string } {
  const from =
    typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string'
      ? state.from
      : '';
  const page = from === screenPath('feedback') ? '' : from;
  const run = /^\/(?:functional-)?test-result\/([^/?#]+)/.exec(page)?.[1];
  return { page, runId: run === undefined ? '' : decodeURIComponent(run) };
}

function resultPath(runId: string): string {
  return runId.startsWith(FUNCTIONAL_TEST_ID_PREFIX)
    ? screenPath('functionalResult', { testId: runId })
    : screenPath('testResult', { testId: runId });
}

/** What the user sent; asked again after a send (the send invalidates it). */
function SentList() {
  const { t, locale } = useI18n();
  const query = useRouteQuery(contract.feedback.list);
  const state = viewOf(query);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t('feedback.sentTitle')}</CardTitle>
      </CardHeader>
      <CardContent>
        {state.status === 'loading' || state.status === 'idle' ? (
          <LoadingBlock text={t('feedback.loading')} className="py-6" />
        ) : state.status === 'error' ? (
          <ErrorBlock
            title={t('feedback.loadFailed')}
            detail={errorDetailMessage(state.error, t)}
            onRetry={() => void query.refetch()}
          />
        ) : state.data.feedback.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="feedback-sent-empty">
            {t('feedback.sentEmpty')}
          </p>
        ) : (
          <ul className="divide-y divide-border" data-testid="feedback-sent-list">
            {state.data.feedback.map((item: Feedback) => (
              <li
                key={item.id}
                className="space-y-1.5 py-3 first:pt-0 last:pb-0"
                data-testid="feedback-sent-item"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="secondary">{t(`feedback.kind.${item.kind}`)}</Badge>
                  <time dateTime={item.created_at} className="text-xs text-muted-foreground">
                    {date.format(new Date(item.created_at))}
                  </time>
                </div>
                <p className="whitespace-pre-wrap break-words text-sm">{item.message}</p>
                {(item.page !== null || item.run_id !== null) && (
                  <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                    {item.page !== null && <span>{t('feedback.onPage', { page: item.page })}</span>}
                    {item.run_id !== null && (
                      <Link to={resultPath(item.run_id)} className="hover:underline">
                        {t('feedback.aboutRun', { id: item.run_id })}
                      </Link>
                    )}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Feedback (docs/reference/02-running.md §2 "Feedback"): a bug, an idea or a question, with the page it is
 * about (the page the user came from) and optionally one of their runs; stored by the server and listed
 * under "What you sent" with its date.
 */
export default function FeedbackPage() {
  const { t } = useI18n();
  const location = useLocation();
  const [initial] = useState(() => cameFrom(location.state));
  const [kind, setKind] = useState<FeedbackKind>('bug');
  const [message, setMessage] = useState('');
  const [page, setPage] = useState(initial.page);
  const [runId, setRunId] = useState(initial.runId);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();

  const clear = (field: Field) => {
    setProblems((current) => ({ ...current, [field]: undefined }));
    setFailure(null);
    setSent(false);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const text = message.trim();
    const found: Partial<Record<Field, string>> = {};
    if (text === '') found.message = t('feedback.messageRequired');
    else if (text.length > FEEDBACK_MESSAGE_MAX)
      found.message = t('feedback.messageTooLong', { max: FEEDBACK_MESSAGE_MAX });
    setProblems(found);
    setFailure(null);
    setSent(false);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      await sendFeedback({
        kind,
        message: text,
        ...(page.trim() === '' ? {} : { page: page.trim() }),
        ...(runId.trim() === '' ? {} : { run_id: runId.trim() }),
      });
      setMessage('');
      setRunId('');
      setSent(true);
      void invalidateRoutes(queryClient, contract.feedback.list);
    } catch (error) {
      const named = serverProblems(error, t);
      setProblems(named);
      if (Object.keys(named).length === 0)
        setFailure(t('feedback.sendFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="max-w-3xl space-y-6" data-testid="feedback-page">
      <PageHeader title={t('feedback.title')} description={t('feedback.description')} />
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t('feedback.formTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="space-y-5" onSubmit={(e) => void handleSubmit(e)} noValidate>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t('feedback.kind')}</legend>
              <div role="radiogroup" aria-label={t('feedback.kind')} className="flex flex-wrap gap-2">
                {FEEDBACK_KINDS.map((value) => {
                  const Icon = KIND_ICONS[value];
                  const selected = kind === value;
                  return (
                    <label
                      key={value}
                      className={cn(
                        'flex cursor-pointer items-center gap-2 rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors',
                        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                        selected
                          ? 'border-primary bg-accent text-accent-foreground'
                          : 'border-border hover:bg-muted',
                      )}
                      data-testid={`feedback-kind-${value}`}
                    >
                      <input
                        type="radio"
                        name="feedback-kind"
                        value={value}
                        checked={selected}
                        onChange={() => {
                          setKind(value);
                          setSent(false);
                        }}
                        className="sr-only"
                      />
                      <Icon aria-hidden className="size-4" />
                      {t(`feedback.kind.${value}`)}
                    </label>
                  );
                })}
              </div>
            </fieldset>
            <FormField
              id="feedback-message"
              label={t('feedback.message')}
              required
              error={problems.message}
              errorTestId="feedback-message-error"
              hint={t('feedback.messageCount', { count: message.trim().length, max: FEEDBACK_MESSAGE_MAX })}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={6}
                  value={message}
                  placeholder={t('feedback.messagePlaceholder')}
                  onChange={(e) => {
                    setMessage(e.target.value);
                    clear('message');
                  }}
                  data-testid="feedback-message"
                />
              )}
            </FormField>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField
                id="feedback-page"
                label={t('feedback.page')}
                error={problems.page}
                hint={t('feedback.pageHint')}
              >
                {(control) => (
                  <Input
                    {...control}
                    value={page}
                    onChange={(e) => {
                      setPage(e.target.value);
                      clear('page');
                    }}
                    data-testid="feedback-page-field"
                  />
                )}
              </FormField>
              <FormField
                id="feedback-run"
                label={t('feedback.runId')}
                error={problems.run_id}
                errorTestId="feedback-run-error"
                hint={t('feedback.runIdHint')}
              >
                {(control) => (
                  <Input
                    {...control}
                    value={runId}
                    onChange={(e) => {
                      setRunId(e.target.value);
                      clear('run_id');
                    }}
                    data-testid="feedback-run-field"
                  />
                )}
              </FormField>
            </div>
            {failure !== null && (
              <Alert variant="destructive" data-testid="feedback-failure">
                {failure}
              </Alert>
            )}
            {sent && (
              <Alert variant="success" data-testid="feedback-sent">
                {t('feedback.sent')}
              </Alert>
            )}
            <Button type="submit" disabled={sending} data-testid="feedback-send">
              {sending ? <Spinner /> : <Send aria-hidden className="size-4" />}
              {sending ? t('feedback.sending') : t('feedback.send')}
            </Button>
          </form>
        </CardContent>
      </Card>
      <SentList />
    </div>
  );
}
