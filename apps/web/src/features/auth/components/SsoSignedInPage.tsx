import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { LoadingBlock } from '@/components/state-blocks';
import { useI18n } from '@/i18n';
import { clearExpiredNotice, saveSession } from '@/lib/session';
import { appPath } from '../model/return-path';
import { fetchUserWith } from '../queries/auth-api';

/**
 * `/login/sso`: where single sign-on's callback sends the browser, with the new session in the URL's
 * fragment (never sent to a server). The session is saved with its account, the fragment wiped from the
 * address bar and history, and the page the sign-in started from opened; a session that does not work
 * goes back to the sign-in page with its reason.
 */
export function SsoSignedInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  useEffect(() => {
    const handed = new URLSearchParams(window.location.hash.slice(1));
    window.history.replaceState(null, '', window.location.pathname);
    const token = handed.get('token');
    const controller = new AbortController();
    if (token === null) {
      void navigate('/login?sso_error=expired', { replace: true });
      return () => controller.abort();
    }
    fetchUserWith(token, controller.signal).then(
      (user) => {
        const expiresAt = handed.get('expires_at');
        saveSession({ token, user, ...(expiresAt === null ? {} : { expiresAt }) });
        clearExpiredNotice();
        void navigate(appPath(handed.get('return_to')), { replace: true });
      },
      () => {
        if (!controller.signal.aborted) void navigate('/login?sso_error=expired', { replace: true });
      },
    );
    return () => controller.abort();
  }, [navigate]);
  return (
    <div className="grid min-h-dvh place-items-center bg-background">
      <LoadingBlock text={t('signIn.sso.finishing')} />
    </div>
  );
}
