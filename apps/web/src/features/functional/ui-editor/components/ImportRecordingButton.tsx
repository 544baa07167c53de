import { FileUp } from 'lucide-react';
import { useRef, useState, type Dispatch } from 'react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import type { FunctionalForm, FunctionalFormAction } from '../../editor/model/functional-form';
import { importRecording, RECORDING_ACCEPT } from '../model/import-recording';
import { callErrorMessage } from '@/features/call-editor';

/**
 * "Import recording" (docs/recorded-ui-tests.md "Editing and uploading"): a Selenium IDE project, a Chrome
 * DevTools Recorder export or a Playwright codegen script becomes UI tests appended to the list, each
 * with its recorded steps; a blank test name takes the recording's. The notices say what was read, what
 * was skipped and noted, a file that is not a recording, and why a file was refused.
 */
export function ImportRecordingButton({
  form,
  dispatch,
  disabled,
}: {
  form: FunctionalForm;
  dispatch: Dispatch<FunctionalFormAction>;
  disabled: boolean;
}) {
  const t = useT();
  const { readOnly } = useWorkspace();
  const notice = useNotice();
  const [importing, setImporting] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const onFile = async (file: File) => {
    setImporting(true);
    try {
      const read = await importRecording(file);
      if (read.kind === 'not-recording') {
        notice.error(t('functional.ui.notRecording', { file: file.name, kind: read.what }));
        return;
      }
      if (read.leftOut > 0)
        notice.error(
          t('functional.ui.importLeftOut', {
            count: read.leftOut,
            file: file.name,
            problem: read.firstProblem ?? '',
          }),
        );
      if (read.apis.length === 0) return;
      dispatch({ type: 'appendApis', apis: read.apis });
      if (form.testName.trim() === '' && read.testName.trim() !== '')
        dispatch({ type: 'setSetting', field: 'testName', value: read.testName });
      notice.success(
        t('functional.ui.imported', {
          tests: read.apis.length,
          actions: read.counts.actions,
          file: file.name,
        }),
      );
      if (read.counts.skipped > 0)
        notice.success(
          t('functional.ui.importSkippedCommands', { count: read.counts.skipped, file: file.name }),
        );
      if (read.warnings.length > 0)
        notice.error(
          t('functional.ui.importWarnings', { file: file.name, list: read.warnings.slice(0, 5).join('; ') }),
        );
    } catch (error) {
      // The import's own message begins with the file's name; the notice names it once.
      const message = callErrorMessage(error, t);
      const own = message.startsWith(`${file.name}: `) ? message.slice(file.name.length + 2) : message;
      notice.error(t('functional.ui.importFailed', { file: file.name, message: own }));
    } finally {
      setImporting(false);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={RECORDING_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void onFile(file);
        }}
        data-testid="import-recording-file"
      />
      <Button
        variant="outline"
        // Reading a file is an editor's call (POST /api/functional/parse-file): a viewer is told why not.
        disabled={disabled || importing || readOnly}
        title={readOnly ? t('workspace.viewerReason') : t('functional.ui.importHint')}
        onClick={() => input.current?.click()}
        data-testid="import-recording"
      >
        {importing ? <Spinner /> : <FileUp />}
        {importing ? t('functional.ui.importing') : t('functional.ui.importRecording')}
      </Button>
    </>
  );
}
