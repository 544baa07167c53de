import type { ReactNode } from 'react';
import { BrandMark } from '@/components/brand-mark';
import { LanguageSwitcher } from '@/components/language-switcher';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

/**
 * Sign-in and registration frame. Wide screens: a dark brand panel on the left (intro above, details
 * below) and the form on the right. Phones: the intro, then the form, then the details.
 */
export function AuthLayout({
  intro,
  details,
  children,
  wide = false,
}: {
  intro: ReactNode;
  details: ReactNode;
  children: ReactNode;
  /** Room for two-column forms (registration). */
  wide?: boolean;
}) {
  const t = useT();
  return (
    <div className="min-h-dvh bg-background lg:grid lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] lg:grid-rows-[auto_1fr]">
      <div
        aria-hidden
        className="brand-panel hidden border-r border-white/10 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:block"
      />

      <header className="relative px-6 pb-8 pt-6 text-white max-lg:brand-panel sm:px-10 lg:col-start-1 lg:row-start-1 lg:px-12 lg:pb-0 lg:pt-12 xl:px-16">
        <div className="flex items-center gap-3">
          <BrandMark className="size-9 shadow-lg shadow-indigo-950/50" />
          <span className="text-base font-semibold tracking-tight">{t('app.name')}</span>
        </div>
        <div className="mt-8 lg:mt-16 xl:mt-20">{intro}</div>
      </header>

      <main className="relative flex justify-center px-4 py-8 sm:px-6 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:items-center lg:px-12 lg:py-16">
        <LanguageSwitcher className="absolute right-4 top-4 sm:right-6 lg:right-8 lg:top-6" />
        <div className={cn('mt-10 w-full lg:mt-0', wide ? 'max-w-[600px]' : 'max-w-[440px]')}>{children}</div>
      </main>

      <section className="border-t border-border px-6 py-8 sm:px-10 lg:col-start-1 lg:row-start-2 lg:border-t-0 lg:px-12 lg:pb-12 lg:pt-10 lg:text-white xl:px-16">
        {details}
      </section>
    </div>
  );
}
