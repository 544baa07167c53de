import { Wand } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/**
 * A URL typed without its scheme ("api.shop.test/orders", "localhost:8080/health"): what it reads as
 * with https:// in front, or null when the text is not one (it has a scheme, starts with a
 * {{variable}}, is blank, or its host part has no dot, port or "localhost").
 */
export function withHttps(url: string): string | null {
  const text = url.trim();
  if (text === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('{{') || /\s/.test(text))
    return null;
  const host = text.split(/[/?#]/, 1)[0] ?? '';
  const looksLikeHost =
    /^[^:]+\.[^.:]+(:\d+)?$/.test(host) || /^[^.:]+:\d+$/.test(host) || host === 'localhost';
  return looksLikeHost ? `https://${text}` : null;
}

/**
 * The one-click fix under a URL field typed without http:// or https:// (issue 24): "Use
 * https://api.shop.test/orders". Nothing when the URL has its scheme.
 */
export function SchemeFix({
  url,
  onFix,
  'data-testid': testId,
}: {
  url: string;
  onFix: (fixed: string) => void;
  'data-testid'?: string;
}) {
  const t = useT();
  const fixed = withHttps(url);
  if (fixed === null) return null;
  return (
    <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-[13px] leading-5 text-muted-foreground">
      <span>{t('url.noScheme')}</span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="h-7 max-w-full px-2"
        onClick={() => onFix(fixed)}
        data-testid={testId}
      >
        <Wand aria-hidden />
        <span className="min-w-0 truncate">{t('url.useHttps', { url: fixed })}</span>
      </Button>
    </p>
  );
}
