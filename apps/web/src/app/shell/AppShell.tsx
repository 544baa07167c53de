import { LogOut, Menu } from 'lucide-react';
import { useEffect, useState } from 'react';
import { NavigationType, Outlet, useLocation, useNavigation, useNavigationType } from 'react-router';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { useT } from '@/i18n';
import { AssistantLauncher, CurrentPlanProvider, greetingName } from '@/features/assistant';
import { useCurrentUser } from '@/features/auth';
import { useWorkspaceLink } from '@/features/workspaces';
import { updateSessionUser, useSession } from '@/lib/session';
import { useCurrentWorkspaceId } from '@/lib/workspace-store';
import { Breadcrumbs } from './Breadcrumbs';
import { Sidebar } from './Sidebar';
import { useLogout } from './use-logout';

/** The signed-in frame: sidebar (a drawer below 1024 px), header with breadcrumbs, greeting, James and Logout. */
export function AppShell() {
  // The plan screens publish their plan to James's panel through this provider (docs/design.md §10).
  return (
    <CurrentPlanProvider>
      <ShellFrame />
    </CurrentPlanProvider>
  );
}

/**
 * A screen opened by a link starts at its top, not at the scroll position of the screen before (a result
 * opened from far down a dashboard). Back and Forward (POP) leave the position to the browser, and a
 * change of the query alone (an editor writing ?planId=) keeps it.
 */
function useScrollToTopOnNewScreen() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new screen (pathname) scrolls
  }, [pathname]);
}

function ShellFrame() {
  const t = useT();
  useScrollToTopOnNewScreen();
  useWorkspaceLink();
  const workspaceId = useCurrentWorkspaceId();
  const session = useSession();
  const logout = useLogout();
  const navigation = useNavigation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The user's first name, not the e-mail their username is (docs/reference/01-authoring.md §2 "Shell").
  const username = greetingName(session?.user);
  const token = session?.token;

  // Checks the stored token with the server once per session and refreshes the stored user, through the
  // cache entry the Profile screen reads too (asked again when the user changes: the cache is forgotten
  // then, src/app/query-client.ts). A revoked or expired token answers 401, which clears the session
  // (lib/api.ts) and so sends the user to /login.
  const me = useCurrentUser({ enabled: !!token });
  const checkedUser = me.status === 'success' ? me.data : null;
  useEffect(() => {
    if (checkedUser) updateSessionUser(checkedUser);
  }, [checkedUser]);

  return (
    <div className="min-h-dvh bg-background">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:left-4 focus:top-3"
      >
        {t('nav.skipToContent')}
      </a>
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 border-r border-border bg-card lg:block">
        <Sidebar />
      </aside>

      <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
        <SheetContent>
          <SheetTitle className="sr-only">{t('nav.label')}</SheetTitle>
          <SheetDescription className="sr-only">{t('app.name')}</SheetDescription>
          <Sidebar onNavigate={() => setDrawerOpen(false)} onClose={() => setDrawerOpen(false)} />
        </SheetContent>
      </Sheet>

      <div className="flex min-h-dvh flex-col lg:pl-64">
        <header className="sticky top-0 z-20 border-b border-border bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
          <div className="mx-auto flex min-h-14 w-full max-w-[1440px] flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:px-6 lg:px-8">
            <Button
              variant="ghost"
              size="icon-sm"
              className="order-1 -ml-1 lg:hidden"
              aria-label={t('nav.open')}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
              data-testid="nav-open"
            >
              <Menu className="size-5" />
            </Button>
            <Breadcrumbs className="order-4 basis-full pb-1 md:order-2 md:basis-auto md:flex-1 md:pb-0" />
            <p
              className="order-2 min-w-0 flex-1 truncate text-sm text-muted-foreground md:order-3 md:flex-none"
              data-testid="header-greeting"
              title={t('header.welcome', { username })}
            >
              {t('header.welcome', { username })}
            </p>
            {/* James's conversation is per workspace (docs/adr/0035-workspaces-and-roles.md): a switch starts his panel afresh. */}
            <AssistantLauncher key={workspaceId ?? 'personal'} className="order-3 md:order-4" />
            <Button
              variant="outline"
              size="sm"
              className="order-3 md:order-4"
              onClick={logout}
              data-testid="logout-button"
            >
              <LogOut />
              <span className="max-sm:sr-only">{t('header.logout')}</span>
            </Button>
          </div>
          {navigation.state === 'loading' && (
            <div
              className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden"
              role="progressbar"
              aria-label={t('header.loadingScreen')}
            >
              <div className="h-full w-2/5 animate-progress bg-primary" />
            </div>
          )}
        </header>

        <main
          id="main-content"
          tabIndex={-1}
          className="mx-auto w-full max-w-[1440px] flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8 lg:px-8"
        >
          <Outlet />
        </main>
      </div>
    </div>
  );
}
