import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/** "Back" above a result screen's title (the performance and the functional result screens). */
export function BackButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  const t = useT();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="-ml-2 text-muted-foreground"
      onClick={onClick}
      disabled={disabled}
      data-testid="back-button"
    >
      <ArrowLeft />
      {t('results.back')}
    </Button>
  );
}
