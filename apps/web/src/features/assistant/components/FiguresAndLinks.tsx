import type { AssistantFigure, AssistantLink } from '@aqa/plan';
import { ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { useI18n } from '@/i18n';

/** The measured numbers an answer or a finding was built from (docs/adr/0005-measured-numbers-only.md). */
export function FigureList({ figures }: { figures: readonly AssistantFigure[] }) {
  const { t, locale } = useI18n();
  if (figures.length === 0) return null;
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  return (
    <dl className="flex flex-wrap gap-1.5" aria-label={t('assistant.figures')} data-testid="james-figures">
      {figures.map((figure, index) => (
        <div
          key={`${figure.label}-${index}`}
          className="flex items-baseline gap-1 rounded-md border border-border bg-muted/50 px-2 py-0.5 text-xs"
        >
          <dt className="text-muted-foreground">{figure.label}</dt>
          <dd className="font-medium tabular-nums text-foreground">
            {format.format(figure.value)}
            {figure.unit ? (figure.unit === '%' ? '%' : ` ${figure.unit}`) : ''}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Links into the app (a plan's editor, a run's result); following one closes the panel on small screens. */
export function LinkList({ links, onNavigate }: { links: readonly AssistantLink[]; onNavigate: () => void }) {
  const { t } = useI18n();
  if (links.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-[13px]" aria-label={t('assistant.links')}>
      {links.map((link, index) => (
        <li key={`${link.href}-${index}`}>
          <Link
            to={link.href}
            onClick={onNavigate}
            className="inline-flex items-center gap-0.5 font-medium text-primary underline-offset-4 hover:underline"
          >
            {link.label}
            <ArrowUpRight aria-hidden className="size-3.5" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
