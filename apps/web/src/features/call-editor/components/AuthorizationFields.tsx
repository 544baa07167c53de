import { AUTH_TYPES, missingAuthorizationFields } from '@aqa/plan';
import type { Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { PasswordInput } from '@/components/password-input';
import { Alert } from '@/components/ui/alert';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import {
  authorizationToModel,
  type AuthForm,
  type EntryForm,
  type EntryFormAction,
} from '../model/entry-form';
import { translateCallMessage } from '../call-messages';
import { NativeSelect } from '@/components/ui/native-select';

/** The Authorization tab: none, bearer, basic, API key or OAuth2 client credentials (docs/reference/01-authoring.md §3). */
export function AuthorizationFields({
  entry,
  dispatch,
  errors,
  testId,
}: {
  entry: EntryForm;
  dispatch: Dispatch<EntryFormAction>;
  errors: Record<string, string>;
  testId: string;
}) {
  const t = useT();
  const auth = entry.authorization;
  const set = (patch: Partial<AuthForm>) => dispatch({ type: 'setAuth', entryId: entry.id, patch });
  const id = (field: string) => `${entry.id}-auth-${field}`;
  const error = (field: string) => {
    const message = errors[`authorization.${field}`];
    return message ? translateCallMessage(message, t) : undefined;
  };
  // docs/reference/01-authoring.md §5: authorization is sent only when every field its type needs is filled.
  const incomplete =
    auth.type !== 'none' && missingAuthorizationFields(authorizationToModel(auth)).length > 0;

  const text = (
    field: keyof AuthForm,
    label: MessageKey,
    options: { secret?: boolean; placeholder?: string } = {},
  ) => (
    <FormField id={id(field)} label={t(label)} error={error(field)}>
      {(control) => {
        const props = {
          ...control,
          value: auth[field],
          autoComplete: 'off',
          spellCheck: false,
          placeholder: options.placeholder,
          className: 'font-mono text-[13px]',
          onChange: (event: { target: { value: string } }) => set({ [field]: event.target.value }),
          'data-testid': `${testId}-auth-${field}`,
        };
        return options.secret ? <PasswordInput {...props} /> : <Input {...props} />;
      }}
    </FormField>
  );

  return (
    <div className="space-y-4" data-testid={`${testId}-authorization`}>
      <FormField id={id('type')} label={t('plans.authType')} className="sm:max-w-xs">
        {(control) => (
          <NativeSelect
            {...control}
            value={auth.type}
            onChange={(event) => {
              const type = AUTH_TYPES.find((value) => value === event.target.value);
              if (type) set({ type });
            }}
            data-testid={`${testId}-auth-type`}
          >
            {AUTH_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`plans.auth.${type}`)}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>

      {auth.type === 'none' && (
        <p className="text-[13px] leading-5 text-muted-foreground">{t('plans.authNoneText')}</p>
      )}
      {auth.type === 'bearer' && (
        <div className="grid gap-4">
          {text('token', 'plans.authToken', { secret: true, placeholder: 'eyJhbGciOi…' })}
        </div>
      )}
      {auth.type === 'basic' && (
        <div className="grid gap-4 sm:grid-cols-2">
          {text('username', 'plans.authUsername')}
          {text('password', 'plans.authPassword', { secret: true })}
        </div>
      )}
      {auth.type === 'api_key' && (
        <div className="grid gap-4 sm:grid-cols-[1fr_1fr_minmax(0,12rem)]">
          {text('keyName', 'plans.authKeyName', { placeholder: 'X-API-Key' })}
          {text('keyValue', 'plans.authKeyValue', { secret: true })}
          <FormField id={id('in')} label={t('plans.authKeyIn')}>
            {(control) => (
              <NativeSelect
                {...control}
                value={auth.in}
                onChange={(event) => set({ in: event.target.value === 'query' ? 'query' : 'header' })}
                data-testid={`${testId}-auth-in`}
              >
                <option value="header">{t('plans.authInHeader')}</option>
                <option value="query">{t('plans.authInQuery')}</option>
              </NativeSelect>
            )}
          </FormField>
        </div>
      )}
      {auth.type === 'oauth2' && (
        <div className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            {text('clientId', 'plans.authClientId')}
            {text('clientSecret', 'plans.authClientSecret', { secret: true })}
            {text('tokenUrl', 'plans.authTokenUrl', { placeholder: 'https://auth.example.com/oauth/token' })}
            {text('scope', 'plans.authScope', { placeholder: 'read write' })}
          </div>
          <p className="text-[13px] leading-5 text-muted-foreground">{t('plans.authOAuthHint')}</p>
        </div>
      )}
      {incomplete && (
        <Alert variant="warning" data-testid={`${testId}-auth-incomplete`}>
          {t('plans.authIncomplete')}
        </Alert>
      )}
    </div>
  );
}
