import {
  MIN_PASSWORD_LENGTH,
  validateRegistration,
  type RegistrationErrorCode,
  type RegistrationField,
  type RegistrationInput,
} from '@aqa/plan';
import { Building, KeyRound, UserRound } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { PasswordInput } from '@/components/password-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT, type Translate } from '@/i18n';
import {
  friendlyErrorMessage,
  registrationCodeOf,
  registrationErrorText,
  translateServerMessage,
} from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { sleep } from '@/lib/utils';
import { SIMULATED_WAIT_MS } from '../constants';
import { useDemoCredentials } from '../hooks/useDemoCredentials';
import { registerRequest, signUpClosed } from '../queries/auth-api';
import { Benefits } from './AuthIntro';
import { AuthLayout } from './AuthLayout';
import type { SignInState } from './SignInPage';

type FormValues = Required<Omit<RegistrationInput, 'username'>>;
type FormKey = keyof FormValues;

/** A field error: a rule code (translated when shown) or a server message we have no code for. */
type FieldError = { code: RegistrationErrorCode } | { text: string };
type FieldErrors = Partial<Record<RegistrationField, FieldError>>;

const EMPTY: FormValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  company: '',
  role: '',
};

/** Focus order for the first invalid field. */
const FIELD_ORDER: RegistrationField[] = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'];

const TEST_IDS: Record<FormKey, string> = {
  firstName: 'register-first-name',
  lastName: 'register-last-name',
  email: 'register-email',
  password: 'register-password',
  confirmPassword: 'register-confirm-password',
  company: 'register-company',
  role: 'register-role',
};

function isRegistrationField(field: string): field is RegistrationField {
  return (FIELD_ORDER as string[]).includes(field);
}

function errorText(error: FieldError | undefined, t: Translate): string | undefined {
  if (!error) return undefined;
  return 'code' in error ? registrationErrorText(error.code, t) : translateServerMessage(error.text, t);
}

/** Field errors from a 400 answer's `errors: [{ field, message }]`; `username` is the email. */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const result: FieldErrors = {};
  for (const { field, message } of error.fieldErrors) {
    const key = field === 'username' ? 'email' : field;
    if (!isRegistrationField(key) || result[key]) continue;
    const code = registrationCodeOf(message);
    result[key] = code ? { code } : { text: message };
  }
  return result;
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-4 flex items-center gap-2 text-sm font-semibold text-foreground">
        <span className="flex size-6 items-center justify-center rounded-md bg-accent text-accent-foreground">
          {icon}
        </span>
        {title}
      </legend>
      {children}
    </fieldset>
  );
}

/** The registration screen of docs/reference/01-authoring.md §2, with the rules of §5 and the states of §4. */
export function RegisterPage() {
  const t = useT();
  const notice = useNotice();
  const navigate = useNavigate();
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // With SIGN_UP off the server refuses every registration: say so instead of offering the form.
  const closed = signUpClosed(useDemoCredentials());

  const change = (key: FormKey) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [key]: value }));
    // Editing a field clears its error (docs/reference/01-authoring.md §4).
    if (isRegistrationField(key)) {
      setErrors((current) => {
        if (!current[key]) return current;
        const next = { ...current };
        delete next[key];
        return next;
      });
    }
  };

  const focusFirstInvalid = (invalid: FieldErrors) => {
    const first = FIELD_ORDER.find((field) => invalid[field]);
    if (first)
      formRef.current?.querySelector<HTMLInputElement>(`[data-testid="${TEST_IDS[first]}"]`)?.focus();
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    const found = validateRegistration(values);
    const invalid: FieldErrors = {};
    for (const field of FIELD_ORDER) {
      const code = found[field];
      if (code) invalid[field] = { code };
    }
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) {
      focusFirstInvalid(invalid);
      return;
    }

    setSubmitting(true);
    await sleep(SIMULATED_WAIT_MS);
    const email = values.email.trim();
    try {
      await registerRequest({
        ...values,
        email,
        username: email,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        company: values.company.trim(),
        role: values.role.trim(),
      });
      // The notice outlives the screen: it is still shown on the sign-in screen it leads to.
      notice.success(t('register.success'));
      // The e-mail is the username: the sign-in screen starts with it filled in (issue 24).
      void navigate('/login', { replace: true, state: { username: email } satisfies SignInState });
    } catch (error) {
      const fromServer = serverFieldErrors(error);
      const message = friendlyErrorMessage(error, t);
      setSubmitting(false);
      setErrors(fromServer);
      // Shown once, in the form's own alert (role="alert") above the fields.
      setFailure(message);
      focusFirstInvalid(fromServer);
    }
  }

  const field = (key: RegistrationField) => ({
    error: errorText(errors[key], t),
    errorTestId: `error-${key}`,
  });

  const intro = (
    <p className="max-w-xl text-3xl font-semibold leading-[1.15] tracking-tight text-white sm:text-4xl xl:text-5xl">
      {t('register.asideTitle')}
    </p>
  );
  const details = (
    <div className="space-y-8">
      <p className="max-w-md text-[15px] leading-7 text-muted-foreground lg:text-white/70">
        {t('register.asideText')}
      </p>
      <Benefits />
    </div>
  );

  return (
    <AuthLayout intro={intro} details={details} wide>
      <Card>
        <CardHeader className="pb-6">
          <h1 className="text-2xl font-semibold tracking-tight">{t('register.title')}</h1>
          <p className="text-sm text-muted-foreground" data-testid="register-invitation">
            {t('register.subtitle')}
          </p>
        </CardHeader>
        <CardContent>
          {failure && (
            <Alert
              variant="destructive"
              title={t('register.failedTitle')}
              className="mb-6"
              data-testid="register-error"
            >
              {failure}
            </Alert>
          )}
          {closed ? (
            <Alert variant="info" data-testid="sign-up-closed">
              {t('signIn.signUpClosed')}
            </Alert>
          ) : (
            <form
              ref={formRef}
              noValidate
              onSubmit={(event) => void handleSubmit(event)}
              className="space-y-8"
              aria-busy={submitting}
            >
              <Section
                icon={<UserRound aria-hidden className="size-3.5" />}
                title={t('register.personalSection')}
              >
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    id="register-first-name"
                    label={t('register.firstName')}
                    required
                    {...field('firstName')}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        required
                        autoComplete="given-name"
                        placeholder={t('register.firstNamePlaceholder')}
                        value={values.firstName}
                        onChange={change('firstName')}
                        data-testid={TEST_IDS.firstName}
                      />
                    )}
                  </FormField>
                  <FormField
                    id="register-last-name"
                    label={t('register.lastName')}
                    required
                    {...field('lastName')}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        required
                        autoComplete="family-name"
                        placeholder={t('register.lastNamePlaceholder')}
                        value={values.lastName}
                        onChange={change('lastName')}
                        data-testid={TEST_IDS.lastName}
                      />
                    )}
                  </FormField>
                </div>
                <FormField
                  id="register-email"
                  label={t('register.email')}
                  required
                  hint={t('register.emailNote')}
                  {...field('email')}
                >
                  {(control) => (
                    <Input
                      {...control}
                      required
                      type="email"
                      autoComplete="email"
                      autoCapitalize="none"
                      spellCheck={false}
                      placeholder={t('register.emailPlaceholder')}
                      value={values.email}
                      onChange={change('email')}
                      data-testid={TEST_IDS.email}
                    />
                  )}
                </FormField>
              </Section>

              <div className="h-px bg-border" role="presentation" />

              <Section
                icon={<KeyRound aria-hidden className="size-3.5" />}
                title={t('register.accountSection')}
              >
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    id="register-password"
                    label={t('register.password')}
                    required
                    {...field('password')}
                  >
                    {(control) => (
                      <PasswordInput
                        {...control}
                        required
                        autoComplete="new-password"
                        placeholder={t('register.passwordPlaceholder', { min: MIN_PASSWORD_LENGTH })}
                        value={values.password}
                        onChange={change('password')}
                        data-testid={TEST_IDS.password}
                      />
                    )}
                  </FormField>
                  <FormField
                    id="register-confirm-password"
                    label={t('register.confirmPassword')}
                    required
                    {...field('confirmPassword')}
                  >
                    {(control) => (
                      <PasswordInput
                        {...control}
                        required
                        autoComplete="new-password"
                        placeholder={t('register.confirmPasswordPlaceholder')}
                        value={values.confirmPassword}
                        onChange={change('confirmPassword')}
                        data-testid={TEST_IDS.confirmPassword}
                      />
                    )}
                  </FormField>
                </div>
              </Section>

              <div className="h-px bg-border" role="presentation" />

              <Section
                icon={<Building aria-hidden className="size-3.5" />}
                title={t('register.companySection')}
              >
                <div className="grid gap-4 sm:grid-cols-[2fr_3fr]">
                  <FormField
                    id="register-company"
                    label={
                      <>
                        {t('register.company')}{' '}
                        <span className="font-normal text-muted-foreground">({t('common.optional')})</span>
                      </>
                    }
                  >
                    {(control) => (
                      <Input
                        {...control}
                        autoComplete="organization"
                        placeholder={t('register.companyPlaceholder')}
                        value={values.company}
                        onChange={change('company')}
                        data-testid={TEST_IDS.company}
                      />
                    )}
                  </FormField>
                  <FormField
                    id="register-role"
                    label={
                      <>
                        {t('register.role')}{' '}
                        <span className="font-normal text-muted-foreground">({t('common.optional')})</span>
                      </>
                    }
                  >
                    {(control) => (
                      <Input
                        {...control}
                        autoComplete="organization-title"
                        placeholder={t('register.rolePlaceholder')}
                        value={values.role}
                        onChange={change('role')}
                        data-testid={TEST_IDS.role}
                      />
                    )}
                  </FormField>
                </div>
              </Section>

              <div className="space-y-3">
                <Button type="submit" className="w-full" disabled={submitting} data-testid="register-submit">
                  {submitting && <Spinner />}
                  {submitting ? t('register.submitting') : t('register.submit')}
                </Button>
                <p className="text-center text-xs text-muted-foreground">{t('register.requiredNote')}</p>
              </div>
            </form>
          )}

          <p className="mt-6 text-center text-sm text-muted-foreground">
            {t('register.haveAccount')}{' '}
            <Link
              to="/login"
              className="font-medium text-primary underline-offset-4 hover:underline"
              data-testid="link-login"
            >
              {t('register.signIn')}
            </Link>
          </p>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
