import { contract } from '@aqa/contract';
import { WorkspaceUpdateSchema, type WorkspaceSummary } from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { invalidateRoutes } from '@/lib/queries';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { timeZoneChoices } from '@/lib/time-zones';
import { updateWorkspace } from '../queries/workspaces-api';

type Field = 'name' | 'timezone';

/** A team workspace's name and time zone: owners change them (PUT /api/workspaces/:id), others read them. */
export function WorkspaceSettingsCard({
  workspace,
  isOwner,
}: {
  workspace: WorkspaceSummary;
  isOwner: boolean;
}) {
  const t = useT();
  const notice = useNotice();
  const client = useQueryClient();
  const zones = useMemo(() => timeZoneChoices(workspace.timezone), [workspace.timezone]);
  const [name, setName] = useState(workspace.name);
  const [timezone, setTimezone] = useState(workspace.timezone);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !isOwner) return;
    setFormError(null);
    const parsed = WorkspaceUpdateSchema.safeParse({ name, timezone });
    if (!parsed.success) {
      setErrors({ name: parsed.error.issues[0]?.message });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await updateWorkspace(workspace.id, parsed.data);
      await invalidateRoutes(client, contract.workspaces.list);
      notice.success(t('workspace.saved'));
    } catch (error) {
      const message = errorDetailMessage(error, t);
      const fields = error instanceof ApiError ? error.fieldErrors : [];
      const found: Partial<Record<Field, string>> = {};
      for (const field of fields) {
        if (field.field === 'name' || field.field === 'timezone') found[field.field] ??= field.message;
      }
      if (Object.keys(found).length > 0) setErrors(found);
      else setFormError(t('workspace.saveFailed', { message }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card data-testid="workspace-settings">
      <CardHeader>
        <CardTitle>{t('workspace.settingsTitle')}</CardTitle>
        {!isOwner && <CardDescription>{t('workspace.ownerOnly')}</CardDescription>}
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(e) => void handleSubmit(e)} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="workspace-name" label={t('workspace.name')} required error={errors.name}>
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  maxLength={80}
                  readOnly={!isOwner}
                  onChange={(e) => setName(e.target.value)}
                  data-testid="workspace-name"
                />
              )}
            </FormField>
            <FormField
              id="workspace-timezone"
              label={t('workspace.timezone')}
              hint={t('workspace.timezoneHint')}
              error={errors.timezone}
            >
              {(control) => (
                <TimeZoneSelect
                  {...control}
                  zones={zones}
                  value={timezone}
                  disabled={!isOwner}
                  onChange={(e) => setTimezone(e.target.value)}
                  data-testid="workspace-timezone"
                />
              )}
            </FormField>
          </div>
          {formError && (
            <Alert variant="destructive" data-testid="workspace-settings-error">
              {formError}
            </Alert>
          )}
          {isOwner && (
            <Button type="submit" disabled={busy} data-testid="workspace-save">
              {busy ? <Spinner /> : <Save />}
              {busy ? t('workspace.saving') : t('workspace.save')}
            </Button>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
