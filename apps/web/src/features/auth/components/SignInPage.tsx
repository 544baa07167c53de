import { SSO_FAILURES, type DemoCredentials, type SsoFailure } from '@aqa/plan';
import { ArrowRight, Building2, KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { PasswordInput } from '@/components/password-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useI18n, weekdayName } from '@/i18n';
import { friendlyErrorMessage } from '@/i18n/error-messages';
import { clearExpiredNotice, hasExpiredNotice, saveSession } from '@/lib/session';
import { sleep } from '@/lib/utils';
import { SIMULATED_WAIT_MS } from '../constants';
import { isLoginIntent, useVoiceCommand } from '../hooks/useVoiceCommand';
import { useDemoCredentials } from '../hooks/useDemoCredentials';
import { appPath } from '../model/return-path';
import { fetchDemoCredentials, loginRequest, signUpClosed, ssoStartUrl } from '../queries/auth-api';
import { Benefits, Tagline } from './AuthIntro';
import { AuthLayout } from './AuthLayout';
import { VoiceCommandBox, type VoiceNotice } from './VoiceCommandBox';

/** What the registration screen hands over: the new account's username (its e-mail), to sign in with. */
export interface SignInState {
  username?: string;
  /** The page the sign-in was asked for (guards.tsx): opened once signed in. */
  from?: string;
}

/** The failure single sign-on's callback named (`/login?sso_error=…`, docs/adr/0033-single-sign-on.md). */
function ssoFailureOf(search: string): SsoFailure | null {
  const code = new URLSearchParams(search).get('sso_error');
  return SSO_FAILURES.find((failure) => failure === code) ?? null;
}

function handedUsername(state: unknown): string {
  const username = (state as SignInState | null)?.username;
  return typeof username === 'string' ? username : '';
}

/** The sign-in screen of docs/reference/01-authoring.md §2, with the states of §4 and the messages of §5 and §8. */
export function SignInPage() {
  const { t, language } = useI18n();
  const notice = useNotice();
  const navigate = useNavigate();
  const location = useLocation();
  const [today] = useState(() => new Date());
  const [username, setUsername] = useState(() => handedUsername(location.state));
  // Just registered: the username is filled in, so the password is what is left to type.
  const [focusPassword] = useState(() => handedUsername(location.state) !== '');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sessionExpired] = useState(hasExpiredNotice);
  const [voiceNotice, setVoiceNotice] = useState<VoiceNotice>(null);

  const demo = useDemoCredentials();
  const demoCredentials = demo.status === 'success' && demo.data.enabled ? demo.data : null;
  const sso = demo.status === 'success' ? (demo.data.sso ?? null) : null;
  // Passwords sign in unless the server said they do not (PASSWORD_SIGN_IN=off).
  const passwords = !(demo.status === 'success' && demo.data.password_sign_in === false);
  const [ssoFailure] = useState(() => ssoFailureOf(location.search));

  const fillDemo = (credentials: DemoCredentials | null = demoCredentials) => {
    if (!credentials?.username || !credentials.password) return;
    setUsername(credentials.username);
    setPassword(credentials.password);
  };

  const voice = useVoiceCommand({
    onTranscript: (transcript) => {
      if (!isLoginIntent(transcript)) return;
      // The demo account may still be loading when a quick command arrives: ask for it then.
      const credentials =
        demo.status === 'loading'
          ? fetchDemoCredentials(new AbortController().signal)
          : Promise.resolve(demoCredentials);
      credentials.then(
        (found) => {
          if (found?.enabled) {
            fillDemo(found);
            setVoiceNotice('filled');
          } else {
            setVoiceNotice('noDemo');
          }
        },
        () => setVoiceNotice('noDemo'),
      );
    },
    onUnsupported: () => notice.error(t('voice.unsupported')),
  });

  const toggleVoice = () => {
    setVoiceNotice(null);
    voice.toggle();
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    setSubmitting(true);
    await sleep(SIMULATED_WAIT_MS);
    if (!username.trim() || !password) {
      setSubmitting(false);
      notice.error(t('signIn.emptyFields'));
      return;
    }
    try {
      const answer = await loginRequest({ username: username.trim(), password });
      saveSession({ token: answer.token, user: answer.user, expiresAt: answer.expires_at });
      clearExpiredNotice();
      void navigate(appPath((location.state as SignInState | null)?.from), { replace: true });
    } catch (error) {
      const message = friendlyErrorMessage(error, t);
      setSubmitting(false);
      // Shown once, in the form's own alert (role="alert") beside the fields it is about.
      setFailure(message);
    }
  }

  const intro = (
    <>
      <p
        className="mb-5 inline-flex items-center rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-indigo-100 ring-1 ring-white/15"
        data-testid="happy-weekday"
      >
        {t('signIn.happyWeekday', { weekday: weekdayName(language, today) })}
      </p>
      <Tagline text={t('app.tagline')} />
    </>
  );

  const details = (
    <div className="space-y-8">
      <p
        className="max-w-md text-[15px] leading-7 text-muted-foreground lg:text-white/70"
        data-testid="product-description"
      >
        {t('signIn.description')}
      </p>
      <Benefits />
    </div>
  );

  return (
    <AuthLayout intro={intro} details={details}>
      <div className="space-y-4">
        <VoiceCommandBox voice={voice} notice={voiceNotice} onToggle={toggleVoice} />

        <Card>
          <CardHeader className="pb-6">
            <CardTitle className="text-2xl">{t('signIn.title')}</CardTitle>
            <CardDescription>{t('signIn.subtitle')}</CardDescription>
          </CardHeader>
          <CardContent>
            {sessionExpired && (
              <Alert variant="info" className="mb-4" data-testid="session-expired">
                {t('signIn.sessionExpired')}
              </Alert>
            )}
            {ssoFailure && (
              <Alert
                variant="destructive"
                title={t('signIn.sso.failedTitle')}
                className="mb-4"
                data-testid="sso-error"
              >
                {t(`signIn.sso.${ssoFailure}`)}
              </Alert>
            )}
            {sso && (
              <div className="space-y-3" data-testid="sso">
                {!passwords && (
                  <p className="text-sm text-muted-foreground" data-testid="sso-only">
                    {t('signIn.sso.only', { name: sso.name })}
                  </p>
                )}
                <Button asChild variant={passwords ? 'outline' : 'default'} className="w-full">
                  <a
                    href={ssoStartUrl(appPath((location.state as SignInState | null)?.from))}
                    data-testid="sso-sign-in"
                  >
                    <Building2 aria-hidden />
                    {t('signIn.sso.button', { name: sso.name })}
                  </a>
                </Button>
                {passwords && (
                  <div className="flex items-center gap-3 py-2 text-xs font-medium uppercase tracking-wider text-muted-foreground">
                    <span className="h-px flex-1 bg-border" />
                    {t('signIn.sso.or')}
                    <span className="h-px flex-1 bg-border" />
                  </div>
                )}
              </div>
            )}
            {failure && (
              <Alert
                variant="destructive"
                title={t('signIn.failedTitle')}
                className="mb-4"
                data-testid="login-error"
              >
                {failure}
              </Alert>
            )}
            {passwords && (
              <form
                noValidate
                onSubmit={(event) => void handleSubmit(event)}
                className="space-y-4"
                aria-busy={submitting}
              >
                <FormField id="login-username" label={t('signIn.username')} required>
                  {(control) => (
                    <Input
                      {...control}
                      required
                      name="username"
                      autoComplete="username"
                      autoCapitalize="none"
                      spellCheck={false}
                      placeholder={t('signIn.usernamePlaceholder')}
                      value={username}
                      onChange={(event) => setUsername(event.target.value)}
                      data-testid="login-username"
                    />
                  )}
                </FormField>
                <FormField id="login-password" label={t('signIn.password')} required>
                  {(control) => (
                    <PasswordInput
                      {...control}
                      required
                      name="password"
                      autoComplete="current-password"
                      autoFocus={focusPassword}
                      placeholder={t('signIn.passwordPlaceholder')}
                      value={password}
                      onChange={(event) => setPassword(event.target.value)}
                      data-testid="login-password"
                    />
                  )}
                </FormField>
                <Button type="submit" className="w-full" disabled={submitting} data-testid="login-submit">
                  {submitting ? <Spinner /> : null}
                  {submitting ? t('signIn.submitting') : t('signIn.submit')}
                  {submitting ? null : <ArrowRight />}
                </Button>
              </form>
            )}

            {demoCredentials && (
              <div data-testid="demo-credentials">
                <div className="my-6 flex items-center gap-3 text-xs font-medium uppercase tracking-wider text-muted-foreground">
                  <span className="h-px flex-1 bg-border" />
                  {t('signIn.demoCredentials')}
                  <span className="h-px flex-1 bg-border" />
                </div>
                <div className="flex items-center gap-3 rounded-lg border border-border bg-muted/50 px-4 py-3">
                  <KeyRound aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <dl className="grid min-w-0 flex-1 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-muted-foreground">{t('signIn.demoUsername')}</dt>
                    <dd className="truncate font-mono text-[13px]" data-testid="demo-username">
                      {demoCredentials.username}
                    </dd>
                    <dt className="text-muted-foreground">{t('signIn.demoPassword')}</dt>
                    <dd className="truncate font-mono text-[13px]" data-testid="demo-password">
                      {demoCredentials.password}
                    </dd>
                  </dl>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-2 w-full text-muted-foreground"
                  onClick={() => fillDemo()}
                  data-testid="demo-fill"
                >
                  {t('signIn.useDemo')}
                </Button>
              </div>
            )}

            {!passwords ? null : signUpClosed(demo) ? (
              <p className="mt-6 text-center text-sm text-muted-foreground" data-testid="sign-up-closed">
                {t('signIn.signUpClosed')}
              </p>
            ) : (
              <p className="mt-6 text-center text-sm text-muted-foreground">
                {t('signIn.noAccount')}{' '}
                <Link
                  to="/register"
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  data-testid="link-register"
                >
                  {t('signIn.signUp')}
                </Link>
              </p>
            )}
          </CardContent>
        </Card>
      </div>
    </AuthLayout>
  );
}
