import { MIN_PASSWORD_LENGTH, type RegistrationErrorCode, type User } from '@aqa/plan';
import { KeyRound, UserRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { PageHeader } from '@/components/page-header';
import { PasswordInput } from '@/components/password-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import {
  errorDetailMessage,
  registrationCodeOf,
  registrationErrorText,
  translateServerMessage,
} from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { updateSessionUser, useSession, type SessionUser } from '@/lib/session';
import { useCurrentUser } from '@/features/auth';
import { changePassword, updateMe } from '../queries/profile-api';

type Feedback = { kind: 'success'; message: MessageKey } | { kind: 'error'; message: string } | null;
/** A rule code (translated when shown) or a server text. */
type FieldProblem = { code: RegistrationErrorCode } | { key: MessageKey } | { text: string };

function problemText(problem: FieldProblem | undefined, t: Translate): string | undefined {
  if (!problem) return undefined;
  if ('code' in problem) return registrationErrorText(problem.code, t);
  if ('key' in problem) return t(problem.key);
  return translateServerMessage(problem.text, t);
}

function serverProblems(error: unknown): Record<string, FieldProblem> {
  if (!(error instanceof ApiError)) return {};
  const problems: Record<string, FieldProblem> = {};
  for (const { field, message } of error.fieldErrors) {
    const code = registrationCodeOf(message);
    problems[field] ??= code ? { code } : { text: message };
  }
  return problems;
}

function FeedbackMessage({ feedback, testId }: { feedback: Feedback; testId: string }) {
  const t = useT();
  if (!feedback) return null;
  return (
    <Alert variant={feedback.kind === 'success' ? 'success' : 'destructive'} data-testid={testId}>
      {feedback.kind === 'success' ? t(feedback.message) : feedback.message}
    </Alert>
  );
}

interface DetailsValues {
  firstName: string;
  lastName: string;
  company: string;
  role: string;
}

function detailsOf(user: SessionUser | User): DetailsValues {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    company: user.company ?? '',
    role: user.role ?? '',
  };
}

function ProfileDetailsCard({ initial, email }: { initial: DetailsValues; email: string }) {
  const t = useT();
  const session = useSession();
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const dirty = (Object.keys(values) as (keyof DetailsValues)[]).some((key) => values[key] !== saved[key]);

  const change = (key: keyof DetailsValues) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setProblems((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
    setFeedback(null);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found: Record<string, FieldProblem> = {};
    if (!values.firstName.trim()) found.firstName = { code: 'firstNameRequired' };
    if (!values.lastName.trim()) found.lastName = { code: 'lastNameRequired' };
    setProblems(found);
    setFeedback(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const user = await updateMe({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        company: values.company.trim(),
        role: values.role.trim(),
      });
      const next = detailsOf(user);
      setSaved(next);
      setValues(next);
      if (session) updateSessionUser({ ...session.user, ...user });
      setFeedback({ kind: 'success', message: 'profile.saved' });
    } catch (error) {
      setProblems(serverProblems(error));
      setFeedback({ kind: 'error', message: errorDetailMessage(error, t) });
    } finally {
      setSaving(false);
    }
  }

  const textField = (
    key: keyof DetailsValues,
    label: MessageKey,
    testId: string,
    options: { required?: boolean; autoComplete?: string; placeholder?: string } = {},
  ) => (
    <FormField
      id={testId}
      label={t(label)}
      required={options.required}
      error={problemText(problems[key], t)}
      errorTestId={`${testId}-error`}
    >
      {(control) => (
        <Input
          {...control}
          required={options.required}
          autoComplete={options.autoComplete}
          placeholder={options.placeholder}
          value={values[key]}
          onChange={(event) => change(key)(event.target.value)}
          data-testid={testId}
        />
      )}
    </FormField>
  );

  return (
    <Card>
      <form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <UserRound aria-hidden className="size-4 text-muted-foreground" />
            {t('profile.detailsTitle')}
          </CardTitle>
          <CardDescription>{t('profile.detailsText')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <FormField id="profile-email" label={t('profile.email')} hint={t('profile.emailNote')}>
            {(control) => <Input {...control} readOnly value={email} data-testid="profile-email" />}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            {textField('firstName', 'register.firstName', 'profile-first-name', {
              required: true,
              autoComplete: 'given-name',
            })}
            {textField('lastName', 'register.lastName', 'profile-last-name', {
              required: true,
              autoComplete: 'family-name',
            })}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {textField('company', 'register.company', 'profile-company', {
              autoComplete: 'organization',
              placeholder: t('register.companyPlaceholder'),
            })}
            {textField('role', 'register.role', 'profile-role', {
              autoComplete: 'organization-title',
              placeholder: t('register.rolePlaceholder'),
            })}
          </div>
          <FeedbackMessage feedback={feedback} testId="profile-message" />
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={saving || !dirty} data-testid="profile-save">
            {saving && <Spinner />}
            {saving ? t('profile.saving') : t('profile.save')}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
const EMPTY_PASSWORDS: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

function PasswordCard() {
  const t = useT();
  const [values, setValues] = useState(EMPTY_PASSWORDS);
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const change = (key: keyof PasswordValues) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setProblems((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
    setFeedback(null);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found: Record<string, FieldProblem> = {};
    if (!values.currentPassword) found.currentPassword = { key: 'serverMessage.currentPasswordRequired' };
    if (!values.newPassword) found.newPassword = { code: 'passwordRequired' };
    else if (values.newPassword.length < MIN_PASSWORD_LENGTH)
      found.newPassword = { code: 'passwordTooShort' };
    if (values.confirmPassword !== values.newPassword)
      found.confirmPassword = { code: 'passwordsDoNotMatch' };
    setProblems(found);
    setFeedback(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await changePassword(values);
      setValues(EMPTY_PASSWORDS);
      setFeedback({ kind: 'success', message: 'profile.passwordChanged' });
    } catch (error) {
      const fromServer = serverProblems(error);
      if (error instanceof ApiError && error.message === 'Current password is incorrect') {
        fromServer.currentPassword = { text: error.message };
      }
      setProblems(fromServer);
      setFeedback({ kind: 'error', message: errorDetailMessage(error, t) });
    } finally {
      setBusy(false);
    }
  }

  const passwordField = (
    key: keyof PasswordValues,
    label: MessageKey,
    testId: string,
    autoComplete: string,
  ) => (
    <FormField
      id={testId}
      label={t(label)}
      required
      error={problemText(problems[key], t)}
      errorTestId={`${testId}-error`}
    >
      {(control) => (
        <PasswordInput
          {...control}
          required
          autoComplete={autoComplete}
          value={values[key]}
          onChange={(event) => change(key)(event.target.value)}
          data-testid={testId}
        />
      )}
    </FormField>
  );

  return (
    <Card>
      <form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <KeyRound aria-hidden className="size-4 text-muted-foreground" />
            {t('profile.passwordTitle')}
          </CardTitle>
          <CardDescription>{t('profile.passwordText', { min: MIN_PASSWORD_LENGTH })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {passwordField(
            'currentPassword',
            'profile.currentPassword',
            'password-current',
            'current-password',
          )}
          {passwordField('newPassword', 'profile.newPassword', 'password-new', 'new-password')}
          {passwordField('confirmPassword', 'profile.confirmNewPassword', 'password-confirm', 'new-password')}
          <FeedbackMessage feedback={feedback} testId="password-message" />
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={busy} data-testid="password-submit">
            {busy && <Spinner />}
            {busy ? t('profile.changingPassword') : t('profile.changePassword')}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function DetailsSkeleton() {
  return (
    <Card className="p-6" aria-hidden>
      <div className="space-y-4">
        <div className="h-5 w-40 animate-pulse rounded bg-muted" />
        <div className="h-4 w-64 animate-pulse rounded bg-muted" />
        {[0, 1, 2].map((row) => (
          <div key={row} className="grid gap-4 sm:grid-cols-2">
            <div className="h-10 animate-pulse rounded-lg bg-muted" />
            <div className="h-10 animate-pulse rounded-lg bg-muted" />
          </div>
        ))}
      </div>
    </Card>
  );
}

/** Profile (docs/design.md §5): name, company and role (PUT /api/me), and the password (POST /api/me/password). */
export default function ProfilePage() {
  const t = useT();
  const session = useSession();
  const me = useCurrentUser();
  // Shown while the server copy loads, or if it cannot be loaded: what the login answer told us.
  const fallback = session?.user;

  return (
    <div className="space-y-6" data-testid="profile-page">
      <PageHeader title={t('profile.title')} description={t('profile.subtitle')} />
      {me.status === 'error' && (
        <Alert variant="warning" data-testid="profile-load-error">
          {t('profile.loadFailed', { message: errorDetailMessage(me.error, t) })}
        </Alert>
      )}
      <div className="grid items-start gap-6 xl:grid-cols-2">
        {me.status === 'loading' ? (
          <DetailsSkeleton />
        ) : me.status === 'success' ? (
          <ProfileDetailsCard
            key="server"
            initial={detailsOf(me.data)}
            email={me.data.email || me.data.username}
          />
        ) : fallback ? (
          <ProfileDetailsCard
            key="session"
            initial={detailsOf(fallback)}
            email={fallback.email || fallback.username}
          />
        ) : null}
        <PasswordCard />
      </div>
    </div>
  );
}
