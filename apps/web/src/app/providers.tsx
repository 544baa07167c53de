import type { ReactNode } from 'react';
import { I18nProvider, type Language } from '@/i18n';
import { ThemeProvider } from '@/lib/theme';

export function AppProviders({ children, language }: { children: ReactNode; language?: Language }) {
  return (
    <I18nProvider initialLanguage={language}>
      <ThemeProvider>{children}</ThemeProvider>
    </I18nProvider>
  );
}
