import type { ReactNode } from 'react';
import { ConfirmProvider } from '@/components/confirm-dialog';
import { NoticeProvider } from '@/components/notices';
import { I18nProvider, type Language } from '@/i18n';
import { ThemeProvider } from '@/lib/theme';

export function AppProviders({ children, language }: { children: ReactNode; language?: Language }) {
  return (
    <I18nProvider initialLanguage={language}>
      <ThemeProvider>
        <NoticeProvider>
          <ConfirmProvider>{children}</ConfirmProvider>
        </NoticeProvider>
      </ThemeProvider>
    </I18nProvider>
  );
}
