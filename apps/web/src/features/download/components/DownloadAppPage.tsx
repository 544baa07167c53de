import { Download, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { screenPath } from '@/lib/screens';
import { useRouteLoader, viewOf } from '@/lib/queries';
import { CLI_DOWNLOAD_PATH, cliCommands, type CliCommands } from '../model/commands';
import { AgentsCard } from './AgentsCard';
import { CommandBlock } from './CommandBlock';
import { fetchPlanChoices, planChoicesKey, type PlanChoice } from '../queries/plan-choices';
import { useCurrentWorkspaceId } from '@/lib/workspace-store';

type Block = Exclude<keyof CliCommands, 'download'>;

const BLOCKS: {
  id: Block;
  title: 'download.terminal' | 'download.github' | 'download.gitlab';
  hint: 'download.terminalHint' | 'download.githubHint' | 'download.gitlabHint';
}[] = [
  { id: 'terminal', title: 'download.terminal', hint: 'download.terminalHint' },
  { id: 'github', title: 'download.github', hint: 'download.githubHint' },
  { id: 'gitlab', title: 'download.gitlab', hint: 'download.gitlabHint' },
];

/** "Then node aqa.mjs --help lists every option.", the command set as code in either language. */
function HelpHint() {
  const { t } = useI18n();
  const mark = '\u0001';
  const [before = '', after = ''] = t('download.helpHint', { command: mark }).split(mark);
  return (
    <p className="text-sm text-muted-foreground">
      {before}
      <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[13px] text-foreground">
        node aqa.mjs --help
      </code>
      {after}
    </p>
  );
}

/** The saved plans to fill the commands with, grouped by kind; the value is the plan's index. */
function PlanPicker({
  plans,
  selected,
  onSelect,
}: {
  plans: PlanChoice[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const { t } = useI18n();
  const groups = [
    { kind: 'performance', label: t('download.planGroupPerformance') },
    { kind: 'functional', label: t('download.planGroupFunctional') },
  ] as const;
  return (
    <div className="space-y-1.5">
      <label htmlFor="download-plan" className="text-sm font-medium">
        {t('download.planLabel')}
      </label>
      <NativeSelect
        id="download-plan"
        value={String(selected)}
        onChange={(e) => onSelect(Number(e.target.value))}
        className="max-w-xl"
        data-testid="download-plan"
      >
        {groups.map((group) => {
          const members = plans
            .map((plan, index) => ({ plan, index }))
            .filter((m) => m.plan.kind === group.kind);
          if (members.length === 0) return null;
          return (
            <optgroup key={group.kind} label={group.label}>
              {members.map(({ plan, index }) => (
                <option key={`${plan.kind}-${plan.id}`} value={index}>
                  {plan.name}
                </option>
              ))}
            </optgroup>
          );
        })}
      </NativeSelect>
      <p className="text-xs text-muted-foreground">{t('download.planHint')}</p>
    </div>
  );
}

/**
 * Download App (docs/reference/02-running.md §2 "Download App"): the aqa command line served by this
 * server, and copy-ready commands for a terminal, GitHub Actions and GitLab CI, filled with this
 * server's address and the chosen saved plan; the token comes from Settings → API tokens.
 */
export default function DownloadAppPage() {
  const { t } = useI18n();
  const plansQuery = useRouteLoader('plan-choices', planChoicesKey(), fetchPlanChoices);
  const currentWorkspace = useCurrentWorkspaceId();
  const plans = viewOf(plansQuery);
  const [selected, setSelected] = useState(0);
  const choices = plans.status === 'success' ? plans.data : [];
  const plan: PlanChoice | undefined = choices[selected] ?? choices[0];
  const commands = cliCommands({
    origin: window.location.origin,
    planId: plan?.id ?? null,
    kind: plan?.kind ?? 'performance',
    // The plans listed are the current workspace's: the commands run them there.
    workspaceId: currentWorkspace,
  });

  return (
    <div className="max-w-4xl space-y-6" data-testid="download-page">
      <PageHeader title={t('download.title')} description={t('download.description')} />

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t('download.cliTitle')}</CardTitle>
          <CardDescription>{t('download.cliText')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap items-center gap-3">
            <Button asChild>
              <a href={CLI_DOWNLOAD_PATH} download="aqa.mjs" data-testid="download-cli">
                <Download aria-hidden />
                {t('download.button')}
              </a>
            </Button>
            <HelpHint />
          </div>
          <div className="space-y-1.5">
            <h3 className="text-sm font-semibold">{t('download.exitTitle')}</h3>
            <dl
              className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm"
              data-testid="download-exit-codes"
            >
              {(['0', '1', '2'] as const).map((code) => (
                <div key={code} className="contents">
                  <dt className="font-mono font-semibold">{code}</dt>
                  <dd className="text-muted-foreground">{t(`download.exit${code}`)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </CardContent>
      </Card>

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">{t('download.planTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            {plans.status === 'loading' || plans.status === 'idle' ? (
              <LoadingBlock text={t('download.loadingPlans')} className="py-4" />
            ) : plans.status === 'error' ? (
              <ErrorBlock
                title={t('download.plansFailed')}
                detail={errorDetailMessage(plans.error, t)}
                onRetry={() => void plansQuery.refetch()}
              />
            ) : choices.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="download-no-plans">
                {t('download.noPlans')}
              </p>
            ) : (
              <PlanPicker
                plans={choices}
                selected={choices[selected] ? selected : 0}
                onSelect={setSelected}
              />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">{t('download.tokenTitle')}</CardTitle>
            <CardDescription>{t('download.tokenText')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline">
              <Link to={screenPath('settings')} data-testid="download-token-link">
                <KeyRound aria-hidden />
                {t('download.tokenLink')}
              </Link>
            </Button>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t('download.commandsTitle')}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-6">
          {BLOCKS.map((block) => (
            <CommandBlock key={block.id} block={block} text={commands[block.id]} />
          ))}
        </CardContent>
      </Card>

      <AgentsCard />
    </div>
  );
}
