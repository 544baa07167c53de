import { WorkspaceMemberAddSchema, type WorkspaceMembers, type WorkspaceRole } from '@aqa/plan';
import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { RoleSelect } from './RoleSelect';
import { addMember } from '../queries/workspaces-api';

/** Answers about the email address itself: said beside the email field, in the server's words. */
const EMAIL_CODES = new Set(['NO_SUCH_ACCOUNT', 'ALREADY_MEMBER']);

/**
 * Adds an existing account by its email address with a role (owners; POST …/members). An unknown address
 * (400 NO_SUCH_ACCOUNT) or a member already (409 ALREADY_MEMBER) is said next to the email field.
 */
export function AddMemberForm({
  workspaceId,
  onAdded,
}: {
  workspaceId: string;
  onAdded: (members: WorkspaceMembers) => void;
}) {
  const t = useT();
  const notice = useNotice();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('editor');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const parsed = WorkspaceMemberAddSchema.safeParse({ email, role });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message);
      return;
    }
    setEmailError(undefined);
    setBusy(true);
    try {
      onAdded(await addMember(workspaceId, parsed.data));
      notice.success(t('workspace.added', { email: parsed.data.email, role: t(`workspace.role.${role}`) }));
      setEmail('');
    } catch (error) {
      const message = errorDetailMessage(error, t);
      const aboutEmail =
        error instanceof ApiError &&
        ((error.code !== undefined && EMAIL_CODES.has(error.code)) ||
          error.fieldErrors.some((field) => field.field === 'email'));
      if (aboutEmail) setEmailError(message);
      else setFormError(t('workspace.actionFailed', { message }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(e)}
      className="space-y-3"
      data-testid="workspace-add-member"
    >
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-start">
        <FormField
          id="workspace-member-email"
          label={t('workspace.memberEmail')}
          required
          error={emailError}
          errorTestId="workspace-member-email-error"
        >
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="workspace-member-email"
            />
          )}
        </FormField>
        <FormField id="workspace-member-role" label={t('workspace.memberRole')}>
          {(control) => (
            <RoleSelect {...control} value={role} onRole={setRole} data-testid="workspace-member-role" />
          )}
        </FormField>
        <Button type="submit" disabled={busy} className="sm:mt-7" data-testid="workspace-member-add">
          {busy ? <Spinner /> : <UserPlus />}
          {busy ? t('workspace.adding') : t('workspace.add')}
        </Button>
      </div>
      <p className="text-[13px] text-muted-foreground">{t(`workspace.roleHelp.${role}`)}</p>
      {formError && (
        <Alert variant="destructive" data-testid="workspace-member-add-error">
          {formError}
        </Alert>
      )}
    </form>
  );
}
