import { FileCode, MousePointerClick, Webhook } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';

const TOPICS: { title: MessageKey; text: MessageKey; icon: typeof Webhook }[] = [
  { title: 'functional.guide.apiTitle', text: 'functional.guide.apiText', icon: Webhook },
  { title: 'functional.guide.uiTitle', text: 'functional.guide.uiText', icon: MousePointerClick },
  { title: 'functional.guide.scriptTitle', text: 'functional.guide.scriptText', icon: FileCode },
];

/** The guide of docs/reference/02-running.md §2: API Testing, UI Testing, Script-based Testing. */
export function TestingGuide() {
  const t = useT();
  return (
    <Card data-testid="functional-guide">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('functional.guide.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4 md:grid-cols-3">
          {TOPICS.map(({ title, text, icon: Icon }) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                <Icon aria-hidden className="size-4" />
              </span>
              <div className="min-w-0 space-y-1">
                <h3 className="text-sm font-semibold">{t(title)}</h3>
                <p className="text-[13px] leading-5 text-muted-foreground">{t(text)}</p>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
