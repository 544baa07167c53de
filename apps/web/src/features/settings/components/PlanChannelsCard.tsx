import { contract, type NotificationChannel } from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { ListChecks } from 'lucide-react';
import { useState } from 'react';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes, useRouteQuery } from '@/lib/queries';
import { setPlanChannels, type PlanFamily } from '../queries/notifications-api';

/** A plan chosen in the select: `load:<id>` or `functional:<id>`. */
function parseChoice(value: string): { family: PlanFamily; id: string } | null {
  const [family, ...rest] = value.split(':');
  const id = rest.join(':');
  return (family === 'load' || family === 'functional') && id !== '' ? { family, id } : null;
}

/**
 * Which channels each saved plan's runs are told on (docs/adr/0032-notifications-out.md §1): pick a
 * plan of any kind, tick its channels, save (PUT /api/plans/{id}/notifications or its functional twin).
 */
export function PlanChannelsCard({ channels }: { channels: NotificationChannel[] }) {
  const { t } = useI18n();
  const notice = useNotice();
  const queryClient = useQueryClient();
  const loadPlans = useRouteQuery(contract.plans.list);
  const functionalPlans = useRouteQuery(contract.functional.list);
  const [choice, setChoice] = useState('');
  const plan = parseChoice(choice);
  const loadChosen = useRouteQuery(
    contract.notifications.loadPlan,
    { params: { id: plan?.id ?? '' } },
    { enabled: plan?.family === 'load' },
  );
  const functionalChosen = useRouteQuery(
    contract.notifications.functionalPlan,
    { params: { id: plan?.id ?? '' } },
    { enabled: plan?.family === 'functional' },
  );
  const chosen = plan?.family === 'load' ? loadChosen.data : functionalChosen.data;
  // The user's ticks for the plan chosen; until they tick, the plan's channels as saved.
  const [edits, setEdits] = useState<{ choice: string; ids: string[] } | null>(null);
  const ticked = edits?.choice === choice ? edits.ids : (chosen?.channel_ids ?? []);
  const toggle = (id: string) =>
    setEdits({ choice, ids: ticked.includes(id) ? ticked.filter((t) => t !== id) : [...ticked, id] });
  const [saving, setSaving] = useState(false);

  async function save() {
    if (plan === null) return;
    setSaving(true);
    try {
      await setPlanChannels(plan.family, plan.id, ticked);
      notice.success(t('notifications.planSaved'));
      await invalidateRoutes(
        queryClient,
        contract.notifications.loadPlan,
        contract.notifications.functionalPlan,
      );
      // The saved list is read back before the ticks are let go, so they do not flicker.
      setEdits(null);
    } catch (error) {
      notice.error(t('notifications.planSaveFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card data-testid="plan-channels">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <ListChecks aria-hidden className="size-4 text-muted-foreground" />
          {t('notifications.planTitle')}
        </CardTitle>
        <CardDescription>{t('notifications.planText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <FormField id="plan-choice" label={t('notifications.plan')}>
          {(control) => (
            <NativeSelect
              {...control}
              value={choice}
              onChange={(e) => setChoice(e.target.value)}
              data-testid="plan-choice"
            >
              <option value="">{t('notifications.planPick')}</option>
              <optgroup label={t('notifications.planLoad')}>
                {(loadPlans.data ?? []).map((p) => (
                  <option key={p.id} value={`load:${p.id}`}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
              <optgroup label={t('notifications.planFunctional')}>
                {(functionalPlans.data ?? []).map((p) => (
                  <option key={p.id} value={`functional:${p.id}`}>
                    {p.test_name}
                  </option>
                ))}
              </optgroup>
            </NativeSelect>
          )}
        </FormField>
        {plan !== null && (
          <>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t('notifications.planChannels')}</legend>
              {channels.length === 0 && (
                <p className="text-[13px] text-muted-foreground">{t('notifications.emptyText')}</p>
              )}
              {channels.map((channel) => (
                <label key={channel.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={ticked.includes(channel.id)}
                    onChange={() => toggle(channel.id)}
                    data-testid={`plan-channel-${channel.id}`}
                  />
                  {channel.name}
                </label>
              ))}
            </fieldset>
            <Button
              onClick={() => void save()}
              disabled={saving || chosen === undefined}
              data-testid="plan-save"
            >
              {t('notifications.planSave')}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
