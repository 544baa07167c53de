import { WorkspaceCreateSchema } from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { contract } from '@aqa/contract';
import { Plus } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { invalidateRoutes } from '@/lib/queries';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { timeZoneChoices } from '@/lib/time-zones';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { createWorkspace } from '../queries/workspaces-api';

/**
 * A new team workspace: a name and a time zone (the user's own first). The maker is its owner and works
 * in it from then on (docs/adr/0035-workspaces-and-roles.md); `onCreated` says where to go.
 */
export function NewWorkspaceForm({ onCreated }: { onCreated: () => void }) {
  const t = useT();
  const notice = useNotice();
  const client = useQueryClient();
  const zones = useMemo(() => timeZoneChoices(), []);
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(zones[0] ?? 'UTC');
  const [nameError, setNameError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const parsed = WorkspaceCreateSchema.safeParse({ name, timezone });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      const created = await createWorkspace(parsed.data);
      await invalidateRoutes(client, contract.workspaces.list);
      setCurrentWorkspace(created.id);
      notice.success(t('workspace.created', { name: created.name }));
      setName('');
      onCreated();
    } catch (error) {
      // The server's words go beside the field they are about (the name), else under the form.
      const message = errorDetailMessage(error, t);
      if (error instanceof ApiError && error.fieldErrors.some((f) => f.field === 'name')) {
        setNameError(error.fieldErrors.find((f) => f.field === 'name')?.message ?? message);
      } else {
        setFormError(t('workspace.createFailed', { message }));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(e)}
      className="space-y-4"
      data-testid="workspace-create-form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="workspace-create-name" label={t('workspace.name')} required error={nameError}>
          {(control) => (
            <Input
              {...control}
              value={name}
              maxLength={80}
              onChange={(e) => setName(e.target.value)}
              data-testid="workspace-create-name"
            />
          )}
        </FormField>
        <FormField
          id="workspace-create-timezone"
          label={t('workspace.timezone')}
          hint={t('workspace.timezoneHint')}
        >
          {(control) => (
            <TimeZoneSelect
              {...control}
              zones={zones}
              value={timezone}
              onChange={(e) => setTimezone(e.target.value)}
              data-testid="workspace-create-timezone"
            />
          )}
        </FormField>
      </div>
      {formError && (
        <Alert variant="destructive" data-testid="workspace-create-error">
          {formError}
        </Alert>
      )}
      <Button type="submit" disabled={busy} data-testid="workspace-create-submit">
        {busy ? <Spinner /> : <Plus />}
        {busy ? t('workspace.creating') : t('workspace.create')}
      </Button>
    </form>
  );
}
