import type { TaurusApi } from '@aqa/converters';
import { ArrowDown, ArrowUp, KeyRound, ListChecks, Trash2 } from 'lucide-react';
import { useState, type Dispatch } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { useShownItems } from '@/components/show-more';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { rulesOf, type ScriptForm, type ScriptFormAction } from '../model/script-form';
import { deleteRequest, setAuthorizationHeader, swapRequests } from '../model/script-edit';
import { AUTHORIZATION_PREVIEW_CHARS, BODY_PREVIEW_CHARS, cut, hasAuthorization } from '../model/script-read';
import { ScriptRulesPanel } from './ScriptRulesPanel';
import { methodTone } from '@/features/call-editor';

/**
 * 'Parsed APIs (n) - Execution Order' (docs/reference/02-running.md §2 "Functional Script Input screen"):
 * the APIs the script will call, in order — name, method badge, URL, headers (an Authorization value cut
 * to 50 characters), body (cut to 100), parameters. Move up / move down and delete edit the script where
 * it writes the request (model/script-edit.ts); an API's Add Validation adds a rule naming the API. With
 * no Authorization header anywhere, the yellow 'Authorization Notice' offers to write one into every
 * request.
 */
export function ParsedApiList({
  apis,
  form,
  dispatch,
  disabled,
}: {
  apis: TaurusApi[];
  form: ScriptForm;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
}) {
  const t = useT();
  const confirm = useConfirm();
  const notice = useNotice();
  const [asking, setAsking] = useState(false);
  const { shown, more } = useShownItems(apis);

  const editScript = (edit: (script: string) => string) => {
    try {
      dispatch({ type: 'setScript', script: edit(form.script) });
      return true;
    } catch (error) {
      notice.error(t('functional.script.editFailed', { message: (error as Error).message }));
      return false;
    }
  };

  const move = (index: number, to: number) => {
    const a = apis[index];
    const b = apis[to];
    if (a && b) editScript((script) => swapRequests(script, a.source.path, b.source.path));
  };

  const remove = async (api: TaurusApi) => {
    const confirmed = await confirm({
      message: t('functional.script.confirmDeleteApi', { name: api.name }),
      confirmLabel: t('functional.script.deleteApi'),
      destructive: true,
    });
    if (!confirmed) return;
    if (editScript((script) => deleteRequest(script, api.source.path))) {
      dispatch({ type: 'removeRulesOf', apiName: api.name });
    }
  };

  const addForAll = () => {
    // Each API without a rule of its own gets the default check: status 200 (docs/reference/02-running.md §9).
    let count = 0;
    for (const api of apis) {
      if (rulesOf(form, api.name).length > 0) continue;
      dispatch({
        type: 'addRule',
        target: { api_name: api.name, url: api.url, method: api.method },
        rule: { type: 'status_code', expected_value: '200', description: '' },
      });
      count += 1;
    }
    notice.success(t('functional.script.addedForAll', { count }));
  };

  const noAuthorization = apis.length > 0 && !apis.some(hasAuthorization);

  return (
    <section className="space-y-3" aria-labelledby="parsed-apis-title" data-testid="parsed-apis">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="parsed-apis-title" className="text-base font-semibold" data-testid="parsed-apis-title">
          {t('functional.script.parsedTitle', { count: apis.length })}
        </h2>
        <Button
          variant="outline"
          disabled={disabled || apis.length === 0}
          onClick={addForAll}
          data-testid="add-validations-all"
        >
          <ListChecks />
          {t('functional.script.addForAll')}
        </Button>
      </div>

      {noAuthorization && (
        <Alert variant="warning" title={t('functional.script.authTitle')} data-testid="auth-notice">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <p>{t('functional.script.authText')}</p>
            <Button
              variant="outline"
              size="sm"
              disabled={disabled}
              onClick={() => setAsking(true)}
              data-testid="add-auth-header"
            >
              <KeyRound />
              {t('functional.script.addAuth')}
            </Button>
          </div>
        </Alert>
      )}
      <AuthorizationDialog
        open={asking}
        onClose={() => setAsking(false)}
        onSet={(value) => {
          if (
            editScript((script) =>
              setAuthorizationHeader(
                script,
                apis.map((api) => api.source.path),
                value,
              ),
            )
          ) {
            setAsking(false);
          }
        }}
      />

      <ol className="space-y-3">
        {shown.map((api, index) => (
          <li key={`${api.source.path}-${index}`}>
            <ParsedApiCard
              api={api}
              index={index}
              count={apis.length}
              form={form}
              dispatch={dispatch}
              disabled={disabled}
              onMove={move}
              onRemove={(item) => void remove(item)}
            />
          </li>
        ))}
      </ol>
      {more}
    </section>
  );
}

function ParsedApiCard({
  api,
  index,
  count,
  form,
  dispatch,
  disabled,
  onMove,
  onRemove,
}: {
  api: TaurusApi;
  index: number;
  count: number;
  form: ScriptForm;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
  onMove: (index: number, to: number) => void;
  onRemove: (api: TaurusApi) => void;
}) {
  const t = useT();
  const testId = `parsed-api-${index}`;
  const headers = Object.entries(api.headers);
  const scriptRules = api.validations.length;
  return (
    <Card className="space-y-3 p-4" data-testid={testId}>
      <div className="flex items-start gap-3">
        <span className="num mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-muted text-[12px] font-semibold">
          {index + 1}
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge
              variant="outline"
              className={cn('font-mono', methodTone(api.method))}
              data-testid={`${testId}-method`}
            >
              {api.method}
            </Badge>
            <span className="font-medium break-all" data-testid={`${testId}-name`}>
              {api.name}
            </span>
            {scriptRules > 0 && (
              <Badge variant="secondary" className="num">
                {t('functional.script.scriptChecks', { count: scriptRules })}
              </Badge>
            )}
          </div>
          <p className="font-mono text-[13px] break-all text-muted-foreground" data-testid={`${testId}-url`}>
            {api.url}
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            disabled={disabled || index === 0}
            aria-label={t('functional.script.moveUp', { name: api.name })}
            onClick={() => onMove(index, index - 1)}
            data-testid={`${testId}-up`}
          >
            <ArrowUp />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            disabled={disabled || index === count - 1}
            aria-label={t('functional.script.moveDown', { name: api.name })}
            onClick={() => onMove(index, index + 1)}
            data-testid={`${testId}-down`}
          >
            <ArrowDown />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            disabled={disabled}
            aria-label={t('functional.script.deleteApiNamed', { name: api.name })}
            onClick={() => onRemove(api)}
            className="text-muted-foreground hover:text-destructive"
            data-testid={`${testId}-delete`}
          >
            <Trash2 />
          </Button>
        </div>
      </div>

      <dl className="grid gap-x-4 gap-y-1.5 text-[13px] sm:grid-cols-[8rem_minmax(0,1fr)]">
        {headers.length > 0 && (
          <>
            <dt className="text-muted-foreground">{t('functional.script.headers')}</dt>
            <dd className="min-w-0 space-y-0.5 font-mono break-all" data-testid={`${testId}-headers`}>
              {headers.map(([name, value]) => (
                <div key={name}>
                  {name}:{' '}
                  {name.toLowerCase() === 'authorization' ? cut(value, AUTHORIZATION_PREVIEW_CHARS) : value}
                </div>
              ))}
            </dd>
          </>
        )}
        {api.body !== '' && (
          <>
            <dt className="text-muted-foreground">{t('functional.script.body')}</dt>
            <dd className="min-w-0 font-mono break-all" data-testid={`${testId}-body`}>
              {cut(api.body, BODY_PREVIEW_CHARS)}
            </dd>
          </>
        )}
        {api.params.length > 0 && (
          <>
            <dt className="text-muted-foreground">{t('functional.script.params')}</dt>
            <dd className="min-w-0 font-mono break-all" data-testid={`${testId}-params`}>
              {api.params.map(({ name, value }) => `${name}=${value}`).join(', ')}
            </dd>
          </>
        )}
      </dl>

      <ScriptRulesPanel
        panelId={`script-api-${index}`}
        target={{ api_name: api.name, url: api.url, method: api.method }}
        rules={rulesOf(form, api.name)}
        dispatch={dispatch}
        testId={testId}
        labels={{
          text: t('functional.script.apiRulesText'),
          empty: t(scriptRules > 0 ? 'functional.script.noApiRulesScript' : 'functional.script.noApiRules'),
        }}
      />
    </Card>
  );
}

/** 'Add Authorization Header': asks for a token or API key; a bare token is sent as a Bearer token. */
function AuthorizationDialog({
  open,
  onClose,
  onSet,
}: {
  open: boolean;
  onClose: () => void;
  onSet: (value: string) => void;
}) {
  const t = useT();
  const [value, setValue] = useState('');
  const trimmed = value.trim();
  // "Bearer x", "Basic x", "ApiKey x"… are sent as typed; a lone token becomes "Bearer token".
  const header = /\s/.test(trimmed) ? trimmed : `Bearer ${trimmed}`;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      {open && (
        <DialogContent closeLabel={t('functional.script.cancel')} data-testid="auth-dialog">
          <DialogHeader>
            <DialogTitle>{t('functional.script.addAuth')}</DialogTitle>
            <DialogDescription>{t('functional.script.authAsk')}</DialogDescription>
          </DialogHeader>
          <Input
            autoFocus
            aria-label={t('functional.script.authValue')}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder="eyJhbGciOi… / Bearer … / ApiKey …"
            className="font-mono"
            data-testid="auth-value"
          />
          {trimmed !== '' && (
            <p className="font-mono text-[13px] break-all text-muted-foreground">
              Authorization: {cut(header, AUTHORIZATION_PREVIEW_CHARS)}
            </p>
          )}
          <DialogFooter>
            <Button variant="ghost" onClick={onClose}>
              {t('functional.script.cancel')}
            </Button>
            <Button disabled={trimmed === ''} onClick={() => onSet(header)} data-testid="auth-apply">
              {t('functional.script.addAuth')}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
