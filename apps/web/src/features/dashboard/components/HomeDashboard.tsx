import {
  ArrowRight,
  ArrowUpRight,
  FileCode,
  FileUp,
  FlaskConical,
  Gauge,
  Link2,
  MousePointerClick,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { ScreenButton } from '@/components/screen-button';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import { RecentActivity } from './RecentActivity';
import { SavedPlans } from './SavedPlans';
import { ViewerNotice } from '@/components/viewer-notice';
import { useWorkspace } from '@/lib/workspace';

interface AreaCardProps {
  icon: LucideIcon;
  title: MessageKey;
  text: MessageKey;
  button: MessageKey;
  screen: ScreenId;
  testId: string;
}

function AreaCard({ icon: Icon, title, text, button, screen, testId }: AreaCardProps) {
  const t = useT();
  return (
    <Card className="flex flex-col p-6" data-testid={testId}>
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-accent text-accent-foreground">
          <Icon aria-hidden className="size-5" />
        </span>
        <div className="min-w-0 space-y-1">
          <h2 className="text-lg font-semibold tracking-tight">{t(title)}</h2>
          <p className="text-sm leading-6 text-muted-foreground">{t(text)}</p>
        </div>
      </div>
      <div className="mt-6 flex flex-1 items-end">
        <ScreenButton screen={screen} data-testid={`${testId}-button`}>
          {t(button)}
          <ArrowRight />
        </ScreenButton>
      </div>
    </Card>
  );
}

interface QuickAction {
  screen: ScreenId;
  title: MessageKey;
  text: MessageKey;
  icon: LucideIcon;
  testId: string;
}

/** The five quick actions of docs/reference/02-running.md §2, in its order. */
const QUICK_ACTIONS: QuickAction[] = [
  {
    screen: 'createTestUrl',
    title: 'dashboard.actionPerformanceUrl',
    text: 'dashboard.actionPerformanceUrlText',
    icon: Link2,
    testId: 'quick-performance-url',
  },
  {
    screen: 'createTestScript',
    title: 'dashboard.actionPerformanceScript',
    text: 'dashboard.actionPerformanceScriptText',
    icon: FileUp,
    testId: 'quick-performance-script',
  },
  {
    screen: 'functionalUrl',
    title: 'dashboard.actionFunctionalUrl',
    text: 'dashboard.actionFunctionalUrlText',
    icon: Webhook,
    testId: 'quick-functional-url',
  },
  {
    screen: 'functionalScript',
    title: 'dashboard.actionFunctionalScript',
    text: 'dashboard.actionFunctionalScriptText',
    icon: FileCode,
    testId: 'quick-functional-script',
  },
  {
    screen: 'functionalUi',
    title: 'dashboard.actionUi',
    text: 'dashboard.actionUiText',
    icon: MousePointerClick,
    testId: 'quick-ui',
  },
];

const tileClass =
  'group relative flex h-full w-full flex-col items-start gap-3 rounded-xl border border-border bg-card p-4 text-left shadow-card transition-[border-color,box-shadow,background-color] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function QuickActionTile({ action }: { action: QuickAction }) {
  const t = useT();
  const Icon = action.icon;
  // Every quick action makes a new plan: not a viewer's (docs/adr/0035-workspaces-and-roles.md).
  const { readOnly } = useWorkspace();
  const available = isScreenAvailable(action.screen) && !readOnly;
  const content = (
    <>
      <span
        className={cn(
          'flex size-9 items-center justify-center rounded-lg',
          available ? 'bg-accent text-accent-foreground' : 'bg-muted text-muted-foreground',
        )}
      >
        <Icon aria-hidden className="size-4" />
      </span>
      <span className="min-w-0 space-y-0.5">
        <span className="block text-sm font-semibold">{t(action.title)}</span>
        <span className="block text-[13px] leading-5 text-muted-foreground">{t(action.text)}</span>
      </span>
    </>
  );
  if (available) {
    return (
      <Link
        to={screenPath(action.screen)}
        className={cn(tileClass, 'hover:border-primary/40 hover:shadow-pop')}
        data-testid={action.testId}
      >
        {content}
        <ArrowUpRight
          aria-hidden
          className="absolute right-4 top-4 size-4 text-muted-foreground transition-transform group-hover:-translate-y-0.5 group-hover:translate-x-0.5 group-hover:text-primary"
        />
      </Link>
    );
  }
  if (readOnly) {
    return (
      <button
        type="button"
        aria-disabled="true"
        title={t('workspace.viewerReason')}
        onClick={preventActivation}
        className={cn(tileClass, 'cursor-not-allowed bg-card/60')}
        data-testid={action.testId}
      >
        <span className="flex flex-col items-start gap-3 opacity-65">{content}</span>
        <span className="sr-only">{t('workspace.viewerReason')}</span>
      </button>
    );
  }
  return (
    <ComingSoon>
      <button
        type="button"
        aria-disabled="true"
        onClick={preventActivation}
        className={cn(tileClass, 'cursor-not-allowed bg-card/60')}
        data-testid={action.testId}
      >
        <span className="flex flex-col items-start gap-3 opacity-65">{content}</span>
        <Badge variant="secondary" className="absolute right-3 top-3" aria-hidden>
          {t('common.comingSoon')}
        </Badge>
      </button>
    </ComingSoon>
  );
}

/** The home dashboard of docs/reference/02-running.md §2 at /dashboard. */
export default function HomeDashboard() {
  const t = useT();
  return (
    <div className="space-y-8" data-testid="home-dashboard">
      <PageHeader title={t('dashboard.title')} description={t('dashboard.subtitle')} />
      <ViewerNotice />

      <section className="grid gap-4 md:grid-cols-2">
        <AreaCard
          icon={Gauge}
          title="dashboard.performanceTitle"
          text="dashboard.performanceText"
          button="dashboard.performanceButton"
          screen="performanceDashboard"
          testId="card-performance"
        />
        <AreaCard
          icon={FlaskConical}
          title="dashboard.functionalTitle"
          text="dashboard.functionalText"
          button="dashboard.functionalButton"
          screen="functionalDashboard"
          testId="card-functional"
        />
      </section>

      <section aria-labelledby="quick-actions-title" className="space-y-3">
        <h2 id="quick-actions-title" className="text-base font-semibold tracking-tight">
          {t('dashboard.quickActions')}
        </h2>
        <ul className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-5">
          {QUICK_ACTIONS.map((action) => (
            <li key={action.screen}>
              <QuickActionTile action={action} />
            </li>
          ))}
        </ul>
      </section>

      <RecentActivity />
      <SavedPlans />
    </div>
  );
}
