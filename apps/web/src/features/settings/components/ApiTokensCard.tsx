import {
  API_TOKEN_EXPIRY_DAYS_MAX,
  API_TOKEN_MESSAGES,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  API_TOKENS_PER_USER,
  ApiTokenCreateSchema,
  CONTROL_CHARACTER_MESSAGES,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenScope,
} from '@aqa/plan';
import { contract } from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, Copy, KeyRound, Server } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/features/history';
import { useI18n, type Translate } from '@/i18n';
import { cn } from '@/lib/utils';
import type { MessageKey } from '@/i18n/en';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { invalidateRoutes, useRouteQuery, viewOf } from '@/lib/queries';
import { createApiToken, revokeApiToken } from '../queries/tokens-api';

const LIMITS = { max: API_TOKEN_EXPIRY_DAYS_MAX };

/** The model's messages (the server's too), by their key here: the form shows them in the user's language. */
const MESSAGE_KEYS: Record<string, { key: MessageKey; vars?: Record<string, number> }> = {
  [API_TOKEN_MESSAGES.nameRequired]: { key: 'settings.tokens.nameRequired' },
  [API_TOKEN_MESSAGES.nameTooLong]: { key: 'settings.tokens.nameTooLong', vars: { max: API_TOKEN_NAME_MAX } },
  [CONTROL_CHARACTER_MESSAGES.line('Token name')]: { key: 'settings.tokens.nameControl' },
  [CONTROL_CHARACTER_MESSAGES.illFormed('Token name')]: { key: 'settings.tokens.nameIllFormed' },
  [API_TOKEN_MESSAGES.expiryInvalid]: { key: 'settings.tokens.expiryInvalid', vars: LIMITS },
  [API_TOKEN_MESSAGES.tooMany]: { key: 'settings.tokens.tooMany', vars: { max: API_TOKENS_PER_USER } },
  [API_TOKEN_MESSAGES.scopeInvalid]: { key: 'settings.tokens.scopeInvalid' },
};

/** Each scope's label, explanation and badge (docs/adr/0023-agents-over-http.md). */
const SCOPE_TEXT: Record<ApiTokenScope, { label: MessageKey; hint: MessageKey; badge: MessageKey }> = {
  api: {
    label: 'settings.tokens.scopeApi',
    hint: 'settings.tokens.scopeApiHint',
    badge: 'settings.tokens.badgeApi',
  },
  agent: {
    label: 'settings.tokens.scopeAgent',
    hint: 'settings.tokens.scopeAgentHint',
    badge: 'settings.tokens.badgeAgent',
  },
};

function translated(message: string, t: Translate): string {
  const known = MESSAGE_KEYS[message];
  return known ? t(known.key, known.vars) : message;
}

type FieldErrors = Partial<Record<'name' | 'expires_in_days', string>>;

/**
 * Settings → API tokens (docs/adr/0012-api-tokens-and-sessions.md): create a named token of a scope
 * (API, or Load agent: docs/adr/0023-agents-over-http.md) with an optional expiry, see it once with a
 * copy button, list the tokens with their scope and dates, revoke one after a confirmation. The rules are the model's (ApiTokenCreateSchema), checked here before the server
 * checks them again.
 */
export function ApiTokensCard() {
  const { t, locale } = useI18n();
  const notice = useNotice();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const tokensQuery = useRouteQuery(contract.tokens.list);
  const tokens = viewOf(tokensQuery);
  // A token made or revoked: the list is asked again (docs/adr/0026-server-state-through-tanstack-query.md).
  const reloadTokens = () => void invalidateRoutes(queryClient, contract.tokens.list);
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('api');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (creating) return;
    setFormError(null);
    const parsed = ApiTokenCreateSchema.safeParse({
      name,
      scope,
      ...(days.trim() === '' ? {} : { expires_in_days: days.trim() }),
    });
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'expires_in_days' ? 'expires_in_days' : 'name';
        found[field] ??= translated(issue.message, t);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setCreating(true);
    try {
      const answer = await createApiToken(parsed.data);
      setCreated(answer);
      setName('');
      setDays('');
      setScope('api');
      reloadTokens();
    } catch (error) {
      const message =
        error instanceof ApiError && error.kind === 'http'
          ? translated(error.detail, t)
          : errorDetailMessage(error, t);
      setFormError(t('settings.tokens.createFailed', { message }));
    } finally {
      setCreating(false);
    }
  }

  async function handleCopy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
      notice.success(t('settings.tokens.copied'));
    } catch {
      notice.error(t('settings.tokens.copyFailed'));
    }
  }

  async function handleRevoke(token: ApiToken) {
    const confirmed = await confirm({
      message: t('settings.tokens.confirmRevoke', { name: token.name }),
      confirmLabel: t('settings.tokens.revoke'),
      destructive: true,
    });
    if (!confirmed) return;
    setRevoking(token.id);
    try {
      await revokeApiToken(token);
      notice.success(t('settings.tokens.revoked', { name: token.name }));
      if (created?.id === token.id) setCreated(null);
    } catch (error) {
      notice.error(t('settings.tokens.revokeFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setRevoking(null);
      reloadTokens();
    }
  }

  return (
    <Card data-testid="api-tokens">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <KeyRound aria-hidden className="size-4 text-muted-foreground" />
          {t('settings.tokens.title')}
        </CardTitle>
        <CardDescription>{t('settings.tokens.text')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form
          noValidate
          onSubmit={(e) => void handleCreate(e)}
          className="space-y-4"
          data-testid="token-form"
        >
          <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
            <FormField
              id="token-name"
              label={t('settings.tokens.name')}
              required
              error={errors.name}
              errorTestId="token-name-error"
            >
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  maxLength={API_TOKEN_NAME_MAX + 1}
                  placeholder={t('settings.tokens.namePlaceholder')}
                  autoComplete="off"
                  onChange={(e) => {
                    setName(e.target.value);
                    setErrors((current) => ({ ...current, name: undefined }));
                  }}
                  data-testid="token-name"
                />
              )}
            </FormField>
            <FormField
              id="token-expiry"
              label={t('settings.tokens.expiry')}
              error={errors.expires_in_days}
              errorTestId="token-expiry-error"
            >
              {(control) => (
                <Input
                  {...control}
                  value={days}
                  inputMode="numeric"
                  placeholder={t('settings.tokens.expiryPlaceholder')}
                  autoComplete="off"
                  onChange={(e) => {
                    setDays(e.target.value);
                    setErrors((current) => ({ ...current, expires_in_days: undefined }));
                  }}
                  data-testid="token-expiry"
                />
              )}
            </FormField>
          </div>
          <p className="text-[13px] text-muted-foreground">{t('settings.tokens.expiryHint', LIMITS)}</p>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{t('settings.tokens.scope')}</legend>
            <div role="radiogroup" aria-label={t('settings.tokens.scope')} className="flex flex-wrap gap-2">
              {API_TOKEN_SCOPES.map((value) => (
                <label
                  key={value}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors',
                    'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                    scope === value
                      ? 'border-primary bg-accent text-accent-foreground'
                      : 'border-border hover:bg-muted',
                  )}
                  data-testid={`token-scope-${value}`}
                >
                  <input
                    type="radio"
                    name="token-scope"
                    value={value}
                    checked={scope === value}
                    onChange={() => setScope(value)}
                    className="sr-only"
                  />
                  {value === 'agent' ? (
                    <Server aria-hidden className="size-4" />
                  ) : (
                    <KeyRound aria-hidden className="size-4" />
                  )}
                  {t(SCOPE_TEXT[value].label)}
                </label>
              ))}
            </div>
            <p className="text-[13px] text-muted-foreground" data-testid="token-scope-hint">
              {t(SCOPE_TEXT[scope].hint)}
            </p>
          </fieldset>
          {formError && (
            <Alert variant="destructive" data-testid="token-form-error">
              {formError}
            </Alert>
          )}
          <Button type="submit" disabled={creating} data-testid="token-create">
            {creating ? <Spinner /> : <KeyRound aria-hidden />}
            {creating ? t('settings.tokens.creating') : t('settings.tokens.create')}
          </Button>
        </form>

        {created && (
          <NewTokenPanel
            created={created}
            onCopy={() => void handleCopy(created.token)}
            onDone={() => setCreated(null)}
          />
        )}

        <section aria-labelledby="token-list-title" className="space-y-3">
          <div className="flex items-baseline justify-between gap-2">
            <h3 id="token-list-title" className="text-sm font-medium">
              {t('settings.tokens.listTitle')}
            </h3>
            {tokens.status === 'success' && (
              <span className="text-[13px] text-muted-foreground" data-testid="token-count">
                {t('settings.tokens.count', { count: tokens.data.tokens.length, max: tokens.data.limit })}
              </span>
            )}
          </div>
          {tokens.status === 'loading' && (
            <LoadingBlock text={t('settings.tokens.loading')} className="py-6" />
          )}
          {tokens.status === 'error' && (
            <ErrorBlock
              title={t('settings.tokens.loadFailed')}
              detail={errorDetailMessage(tokens.error, t)}
              onRetry={() => void tokensQuery.refetch()}
              data-testid="token-list-error"
            />
          )}
          {tokens.status === 'success' && tokens.data.tokens.length === 0 && (
            <EmptyBlock
              icon={KeyRound}
              title={t('settings.tokens.empty')}
              text={t('settings.tokens.emptyText')}
              className="py-6"
              data-testid="token-list-empty"
            />
          )}
          {tokens.status === 'success' && tokens.data.tokens.length > 0 && (
            <ul className="divide-y divide-border rounded-lg border border-border" data-testid="token-list">
              {tokens.data.tokens.map((token) => (
                <li
                  key={token.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                  data-testid="token-row"
                  data-expired={token.expired}
                >
                  <div className="min-w-0 flex-1">
                    <p className="flex items-center gap-2 text-sm font-medium">
                      <span className="truncate" data-testid="token-row-name">
                        {token.name}
                      </span>
                      <Badge
                        variant={token.scope === 'agent' ? 'default' : 'outline'}
                        data-testid="token-row-scope"
                      >
                        {t(SCOPE_TEXT[token.scope].badge)}
                      </Badge>
                      {token.expired && (
                        <Badge variant="destructive" data-testid="token-row-expired">
                          {t('settings.tokens.expired')}
                        </Badge>
                      )}
                    </p>
                    <p className="mt-0.5 text-[13px] text-muted-foreground" data-testid="token-row-dates">
                      {tokenDates(token, locale, t).join(' · ')}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={revoking === token.id}
                    aria-label={t('settings.tokens.revokeLabel', { name: token.name })}
                    onClick={() => void handleRevoke(token)}
                    data-testid="token-revoke"
                  >
                    {revoking === token.id ? <Spinner /> : <Ban aria-hidden />}
                    {t('settings.tokens.revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/** The token, this once: a read-only field that selects itself, a copy button, and the warning. */
function NewTokenPanel({
  created,
  onCopy,
  onDone,
}: {
  created: ApiTokenCreated;
  onCopy: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  return (
    <Alert variant="warning" data-testid="token-created">
      <div className="min-w-0 flex-1 space-y-3">
        <div>
          <p className="font-medium">{t('settings.tokens.createdTitle', { name: created.name })}</p>
          <p data-testid="token-created-warning">{t('settings.tokens.createdWarning')}</p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            readOnly
            value={created.token}
            aria-label={t('settings.tokens.tokenLabel')}
            onFocus={(e) => e.currentTarget.select()}
            className="font-mono text-[13px] text-foreground"
            data-testid="token-value"
          />
          <Button type="button" variant="outline" onClick={onCopy} data-testid="token-copy">
            <Copy aria-hidden />
            {t('settings.tokens.copy')}
          </Button>
        </div>
        <p className="text-[13px]">
          {t(created.scope === 'agent' ? 'settings.tokens.usageAgent' : 'settings.tokens.usage')}
        </p>
        <Button type="button" size="sm" variant="secondary" onClick={onDone} data-testid="token-done">
          {t('settings.tokens.done')}
        </Button>
      </div>
    </Alert>
  );
}

/** "Created …", "Last used …" or "Never used", and "Expires …", "Expired …" or "Never expires". */
function tokenDates(token: ApiToken, locale: string, t: Translate): string[] {
  const at = (value: string | null) => formatDateTime(value, locale) ?? '—';
  return [
    t('settings.tokens.created', { date: at(token.created_at) }),
    token.last_used_at === null
      ? t('settings.tokens.neverUsed')
      : t('settings.tokens.lastUsed', { date: at(token.last_used_at) }),
    token.expires_at === null
      ? t('settings.tokens.neverExpires')
      : t(token.expired ? 'settings.tokens.expiredOn' : 'settings.tokens.expires', {
          date: at(token.expires_at),
        }),
  ];
}
