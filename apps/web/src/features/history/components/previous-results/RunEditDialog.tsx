import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { saveTestResult, type PastRun } from '../../queries/history-api';

/** The server's limits of POST /api/save-test-result. */
export const MAX_TEST_NAME = 200;
export const MAX_NOTES = 2000;

/** Rename a run and keep notes on it (POST /api/save-test-result); a blank name goes back to the plan's. */
export function RunEditDialog({
  run,
  open,
  onOpenChange,
  onSaved,
}: {
  run: PastRun;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (run: PastRun) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <RunEditForm run={run} onSaved={onSaved} onCancel={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function RunEditForm({
  run,
  onSaved,
  onCancel,
}: {
  run: PastRun;
  onSaved: (run: PastRun) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [name, setName] = useState(run.test_name ?? '');
  const [notes, setNotes] = useState(run.notes ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const saved = await saveTestResult({ test_id: run.test_id, test_name: name.trim(), notes });
      onSaved(saved);
    } catch (failure) {
      setError(t('history.edit.failed', { message: errorDetailMessage(failure, t) }));
      setBusy(false);
    }
  }

  return (
    <DialogContent closeLabel={t('common.close')} data-testid="run-edit-dialog">
      <form className="space-y-4" onSubmit={(event) => void submit(event)}>
        <DialogHeader>
          <DialogTitle>{t('history.edit.title')}</DialogTitle>
          <DialogDescription>{t('history.edit.text')}</DialogDescription>
        </DialogHeader>
        <div className="space-y-1.5">
          <Label htmlFor="run-edit-name">{t('history.edit.name')}</Label>
          <Input
            id="run-edit-name"
            value={name}
            maxLength={MAX_TEST_NAME}
            placeholder={run.plan_name}
            onChange={(event) => setName(event.target.value)}
            data-testid="run-edit-name"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="run-edit-notes">{t('history.edit.notes')}</Label>
          <Textarea
            id="run-edit-notes"
            rows={5}
            value={notes}
            maxLength={MAX_NOTES}
            onChange={(event) => setNotes(event.target.value)}
            data-testid="run-edit-notes"
          />
          <p className="num text-right text-xs text-muted-foreground">
            {notes.length} / {MAX_NOTES}
          </p>
        </div>
        {error && <Alert variant="destructive">{error}</Alert>}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            {t('history.edit.cancel')}
          </Button>
          <Button type="submit" disabled={busy} data-testid="run-edit-save">
            {busy && <Spinner />}
            {t('history.edit.save')}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
