import { ShieldCheck, Users, Zap } from 'lucide-react';
import { useT } from '@/i18n';

/**
 * The tagline, one sentence per line with the last one accented. The spaces stay in the text, so the
 * heading's text content is exactly the tagline.
 */
export function Tagline({ text }: { text: string }) {
  const sentences = text.split(/(?<=\.)\s+/);
  return (
    <h1 className="max-w-xl text-[32px] font-semibold leading-[1.15] tracking-tight text-white sm:text-4xl xl:text-5xl">
      {sentences.map((sentence, index) => {
        const last = index === sentences.length - 1;
        return (
          <span
            key={sentence}
            className={
              last
                ? 'block bg-gradient-to-r from-indigo-300 via-violet-300 to-sky-300 bg-clip-text text-transparent'
                : 'block'
            }
          >
            {last ? sentence : `${sentence} `}
          </span>
        );
      })}
    </h1>
  );
}

const BENEFITS = [
  { icon: Zap, title: 'signIn.benefitFast', text: 'signIn.benefitFastText', testId: 'benefit-fast' },
  {
    icon: ShieldCheck,
    title: 'signIn.benefitSecure',
    text: 'signIn.benefitSecureText',
    testId: 'benefit-secure',
  },
  {
    icon: Users,
    title: 'signIn.benefitCollaborative',
    text: 'signIn.benefitCollaborativeText',
    testId: 'benefit-collaborative',
  },
] as const;

/** The three benefits of docs/reference/01-authoring.md §1: Lightning Fast, Secure, Collaborative. */
export function Benefits() {
  const t = useT();
  return (
    <ul aria-label={t('signIn.benefitsLabel')} className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1 lg:gap-5">
      {BENEFITS.map(({ icon: Icon, title, text, testId }) => (
        <li key={testId} className="flex items-start gap-3" data-testid={testId}>
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground lg:bg-white/8 lg:text-indigo-200 lg:ring-1 lg:ring-white/10">
            <Icon aria-hidden className="size-5" />
          </span>
          <div className="min-w-0 pt-0.5">
            <p className="text-sm font-semibold">{t(title)}</p>
            <p className="text-sm text-muted-foreground lg:text-white/60">{t(text)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
