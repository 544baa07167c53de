import { Check, Languages, Monitor, Moon, Palette, Sun, type LucideIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { isLanguage, useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { useTheme, type ThemePreference } from '@/lib/theme';
import { useWorkspace } from '@/lib/workspace';
import { cn } from '@/lib/utils';
import { ApiTokensCard } from './ApiTokensCard';
import { AuditLogCard } from './AuditLogCard';
import { WorkspaceCard } from './WorkspaceCard';

const THEME_OPTIONS: { value: ThemePreference; label: MessageKey; icon: LucideIcon }[] = [
  { value: 'light', label: 'settings.themeLight', icon: Sun },
  { value: 'dark', label: 'settings.themeDark', icon: Moon },
  { value: 'system', label: 'settings.themeSystem', icon: Monitor },
];

/** Miniature of the app in a theme, drawn with fixed colours so each option previews its own look. */
function ThemePreview({ theme }: { theme: ThemePreference }) {
  const light = (
    <div className="flex h-full w-full bg-[#f6f6f8]">
      <div className="w-1/4 border-r border-[#e3e3e9] bg-white p-1.5">
        <div className="mb-1 h-1.5 rounded-sm bg-[#4f46e5]" />
        <div className="h-1 rounded-sm bg-[#e3e3e9]" />
      </div>
      <div className="flex-1 space-y-1 p-1.5">
        <div className="h-1.5 w-2/3 rounded-sm bg-[#d6d6de]" />
        <div className="h-5 rounded border border-[#e3e3e9] bg-white" />
      </div>
    </div>
  );
  const dark = (
    <div className="flex h-full w-full bg-[#0c0c10]">
      <div className="w-1/4 border-r border-[#27272f] bg-[#141419] p-1.5">
        <div className="mb-1 h-1.5 rounded-sm bg-[#6366f1]" />
        <div className="h-1 rounded-sm bg-[#27272f]" />
      </div>
      <div className="flex-1 space-y-1 p-1.5">
        <div className="h-1.5 w-2/3 rounded-sm bg-[#33333d]" />
        <div className="h-5 rounded border border-[#27272f] bg-[#141419]" />
      </div>
    </div>
  );
  return (
    <div aria-hidden className="relative h-16 overflow-hidden rounded-md border border-border">
      {theme === 'system' ? (
        <>
          {light}
          <div className="absolute inset-0 [clip-path:polygon(100%_0,100%_100%,0_100%)]">{dark}</div>
        </>
      ) : theme === 'dark' ? (
        dark
      ) : (
        light
      )}
    </div>
  );
}

/**
 * Settings (docs/design.md §5): language and theme, stored in this browser and applied at once; and the
 * account's API tokens for CI, kept on the server.
 */
export default function SettingsPage() {
  const { t, language, setLanguage } = useI18n();
  const { theme, setTheme } = useTheme();
  const workspace = useWorkspace();

  return (
    <div className="max-w-3xl space-y-6" data-testid="settings-page">
      <PageHeader title={t('settings.title')} description={t('settings.subtitle')} />

      <Card>
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <Languages aria-hidden className="size-4 text-muted-foreground" />
            {t('settings.languageTitle')}
          </CardTitle>
          <CardDescription>{t('settings.languageText')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-2">
          <Label htmlFor="settings-language" className="sr-only">
            {t('settings.languageTitle')}
          </Label>
          <Select
            value={language}
            onValueChange={(value) => {
              if (isLanguage(value)) setLanguage(value);
            }}
          >
            <SelectTrigger id="settings-language" className="sm:w-72" data-testid="settings-language">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="en" data-testid="settings-language-en">
                {t('settings.english')}
              </SelectItem>
              <SelectItem value="ko" lang="ko" data-testid="settings-language-ko">
                {t('settings.korean')}
              </SelectItem>
            </SelectContent>
          </Select>
          <p className="text-[13px] text-muted-foreground">{t('settings.savedNote')}</p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <Palette aria-hidden className="size-4 text-muted-foreground" />
            {t('settings.themeTitle')}
          </CardTitle>
          <CardDescription>{t('settings.themeText')}</CardDescription>
        </CardHeader>
        <CardContent>
          <div role="radiogroup" aria-label={t('settings.themeTitle')} className="grid gap-3 sm:grid-cols-3">
            {THEME_OPTIONS.map(({ value, label, icon: Icon }) => {
              const selected = theme === value;
              return (
                <label
                  key={value}
                  className={cn(
                    'relative flex cursor-pointer flex-col gap-3 rounded-xl border p-3 transition-colors',
                    'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                    selected ? 'border-primary bg-accent/60' : 'border-border hover:bg-muted/60',
                  )}
                  data-testid={`settings-theme-${value}`}
                >
                  <input
                    type="radio"
                    name="theme"
                    value={value}
                    checked={selected}
                    onChange={() => setTheme(value)}
                    className="sr-only"
                  />
                  <ThemePreview theme={value} />
                  <span className="flex items-center gap-2 text-sm font-medium">
                    <Icon aria-hidden className="size-4 text-muted-foreground" />
                    {t(label)}
                    {selected && <Check aria-hidden className="ml-auto size-4 text-primary" />}
                  </span>
                </label>
              );
            })}
          </div>
        </CardContent>
      </Card>

      <WorkspaceCard />
      <ApiTokensCard />
      {/* The audit log is the workspace's, for its owners (docs/adr/0035-workspaces-and-roles.md). */}
      {workspace.isOwner && <AuditLogCard />}
    </div>
  );
}
