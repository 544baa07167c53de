import { Languages } from 'lucide-react';
import { LANGUAGES, useI18n, type Language } from '@/i18n';
import { cn } from '@/lib/utils';

const NAMES: Record<Language, string> = { en: 'English', ko: '한국어' };

/** A compact EN / 한국어 switch for screens outside the shell (sign-in, registration). */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { language, setLanguage, t } = useI18n();
  return (
    <div
      role="group"
      aria-label={t('common.language')}
      className={cn(
        'inline-flex items-center gap-1 rounded-lg border border-border bg-card p-0.5 shadow-xs',
        className,
      )}
    >
      <Languages aria-hidden className="ml-1.5 size-3.5 text-muted-foreground" />
      {LANGUAGES.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          aria-pressed={language === code}
          onClick={() => setLanguage(code)}
          data-testid={`language-${code}`}
          className={cn(
            'h-7 rounded-md px-2.5 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            language === code
              ? 'bg-accent text-accent-foreground'
              : 'text-muted-foreground hover:text-foreground',
          )}
        >
          {NAMES[code]}
        </button>
      ))}
    </div>
  );
}
