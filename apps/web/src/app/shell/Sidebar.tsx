import { ChevronDown, X } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { BrandMark } from '@/components/brand-mark';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { Button } from '@/components/ui/button';
import { UnreadBadge } from '@/features/messages';
import { WorkspaceSwitcher } from '@/features/workspaces';
import { useT } from '@/i18n';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { useWorkspace } from '@/lib/workspace';
import { isScreenAvailable, screenPath, SCREENS } from '@/lib/screens';
import { NAV_PRIMARY, NAV_SECONDARY, type NavGroupItem, type NavLinkItem } from './navigation';

const itemClass =
  'group flex h-9 w-full items-center gap-3 rounded-lg px-2.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function SidebarLink({
  item,
  nested,
  onNavigate,
}: {
  item: NavLinkItem;
  nested?: boolean;
  onNavigate?: () => void;
}) {
  const t = useT();
  const { pathname } = useLocation();
  const { readOnly } = useWorkspace();
  const Icon = item.icon;
  const label = t(item.label);
  if (item.creates && readOnly) {
    // A viewer makes no plans: the entry stays in its place, disabled, and says why.
    return (
      <li>
        <button
          type="button"
          aria-disabled="true"
          title={t('workspace.viewerReason')}
          data-testid={item.testId}
          onClick={preventActivation}
          className={cn(
            itemClass,
            'cursor-not-allowed text-muted-foreground/60',
            nested && 'h-8 text-[13px]',
          )}
        >
          <Icon aria-hidden className="size-4 shrink-0 opacity-70" />
          <span className="truncate">{label}</span>
          <span className="sr-only">{t('workspace.viewerReason')}</span>
        </button>
      </li>
    );
  }
  if (!isScreenAvailable(item.screen)) {
    return (
      <li>
        <ComingSoon side="right">
          <button
            type="button"
            aria-disabled="true"
            data-testid={item.testId}
            onClick={preventActivation}
            className={cn(
              itemClass,
              'cursor-not-allowed text-muted-foreground/60',
              nested && 'h-8 text-[13px]',
            )}
          >
            <Icon aria-hidden className="size-4 shrink-0 opacity-70" />
            <span className="truncate">{label}</span>
          </button>
        </ComingSoon>
      </li>
    );
  }
  return (
    <li>
      <NavLink
        to={screenPath(item.screen)}
        end
        data-testid={item.testId}
        // Feedback fills its Page field with the page the user came from.
        state={item.screen === 'feedback' ? { from: pathname } : undefined}
        onClick={onNavigate}
        className={({ isActive }) =>
          cn(
            itemClass,
            nested && 'h-8 text-[13px]',
            isActive
              ? 'bg-accent text-accent-foreground'
              : 'text-muted-foreground hover:bg-muted hover:text-foreground',
          )
        }
      >
        {({ isActive }) => (
          <>
            <Icon aria-hidden className={cn('size-4 shrink-0', isActive ? 'text-primary' : 'opacity-80')} />
            <span className="truncate">{label}</span>
            {item.screen === 'messages' && <UnreadBadge />}
          </>
        )}
      </NavLink>
    </li>
  );
}

function SidebarGroup({ group, onNavigate }: { group: NavGroupItem; onNavigate?: () => void }) {
  const t = useT();
  const { pathname } = useLocation();
  const containsCurrent = group.children.some((child) => pathname === SCREENS[child.screen].path);
  const [open, setOpen] = useState(true);
  const expanded = open || containsCurrent;
  const Icon = group.icon;
  const listId = `nav-group-${group.id}`;
  return (
    <li>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setOpen(!expanded)}
        className={cn(itemClass, 'text-foreground/85 hover:bg-muted hover:text-foreground')}
      >
        <Icon aria-hidden className="size-4 shrink-0 opacity-80" />
        <span className="flex-1 truncate text-left">{t(group.label)}</span>
        <ChevronDown
          aria-hidden
          className={cn('size-4 shrink-0 opacity-60 transition-transform', !expanded && '-rotate-90')}
        />
      </button>
      {expanded && (
        <ul id={listId} className="ml-[1.1rem] mt-0.5 space-y-0.5 border-l border-border pl-2.5">
          {group.children.map((child) => (
            <SidebarLink key={child.screen} item={child} nested onNavigate={onNavigate} />
          ))}
        </ul>
      )}
    </li>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length >= 2 ? `${parts[0]?.[0] ?? ''}${parts[1]?.[0] ?? ''}` : name.slice(0, 2);
  return letters.toUpperCase();
}

function SidebarUser() {
  const session = useSession();
  if (!session) return null;
  const { user } = session;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className="flex items-center gap-3 rounded-lg px-2 py-2">
      <span
        aria-hidden
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
      >
        {initials(fullName || user.username)}
      </span>
      <div className="min-w-0 text-sm leading-5">
        {fullName && <p className="truncate font-medium">{fullName}</p>}
        <p className="truncate text-xs text-muted-foreground">{user.email || user.username}</p>
      </div>
    </div>
  );
}

/** The navigation column: fixed on wide screens, inside a drawer on narrow ones. */
export function Sidebar({ onNavigate, onClose }: { onNavigate?: () => void; onClose?: () => void }) {
  const t = useT();
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-14 shrink-0 items-center gap-2.5 border-b border-border px-4">
        <BrandMark className="size-7" />
        <span className="flex-1 truncate text-[15px] font-semibold tracking-tight" data-testid="shell-title">
          {t('app.name')}
        </span>
        {onClose && (
          <Button
            variant="ghost"
            size="icon-sm"
            className="-mr-1"
            onClick={onClose}
            aria-label={t('nav.close')}
          >
            <X className="size-4" />
          </Button>
        )}
      </div>
      <WorkspaceSwitcher onNavigate={onNavigate} />
      <nav aria-label={t('nav.label')} className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {NAV_PRIMARY.map((item) =>
            item.kind === 'group' ? (
              <SidebarGroup key={item.id} group={item} onNavigate={onNavigate} />
            ) : (
              <SidebarLink key={item.screen} item={item} onNavigate={onNavigate} />
            ),
          )}
        </ul>
        <div className="my-4 h-px bg-border" role="presentation" />
        <ul className="space-y-1">
          {NAV_SECONDARY.map((item) => (
            <SidebarLink key={item.screen} item={item} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
      <div className="shrink-0 border-t border-border p-2">
        <SidebarUser />
      </div>
    </div>
  );
}
