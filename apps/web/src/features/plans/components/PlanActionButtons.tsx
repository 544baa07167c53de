import { Play, ShieldCheck, Sparkles } from 'lucide-react';
import type { ElementType } from 'react';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { runChoicesAfter, ToolCannotRunAlert } from '@/components/run-elsewhere';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import type { PlanEditor } from '../hooks/usePlanEditor';
import { RunPlacement } from './RunPlacement';

/**
 * The action buttons both performance screens share, each with its busy label (docs/reference/01-authoring.md §2). The screens
 * differ in wording ("Generate" / "Generate Script"), so the idle label is theirs to give.
 */

interface ActionProps {
  editor: PlanEditor;
  disabled: boolean;
  label: string;
  className?: string;
}

function BusyIcon({ busy, icon: Icon }: { busy: boolean; icon: ElementType }) {
  return busy ? <Spinner /> : <Icon />;
}

export function GenerateButton({ editor, disabled, label, className }: ActionProps) {
  const t = useT();
  const { readOnly } = useWorkspace();
  const busy = editor.busy === 'generating';
  return (
    <Button
      disabled={disabled || busy || readOnly}
      title={readOnly ? t('workspace.viewerReason') : undefined}
      onClick={() => void editor.generate()}
      className={className}
      data-testid="generate-plan"
    >
      <BusyIcon busy={busy} icon={Sparkles} />
      {busy ? t('plans.generating') : label}
    </Button>
  );
}

export function ValidateButton({ editor, disabled, label, className }: ActionProps) {
  const t = useT();
  const { readOnly } = useWorkspace();
  const busy = editor.busy === 'validating';
  return (
    <Button
      variant="outline"
      disabled={disabled || busy || readOnly}
      title={readOnly ? t('workspace.viewerReason') : undefined}
      onClick={() => void editor.validate()}
      className={className}
      data-testid="validate-plan"
    >
      <BusyIcon busy={busy} icon={ShieldCheck} />
      {busy ? t('plans.validating') : label}
    </Button>
  );
}

/**
 * Run Script: saves an unsaved plan first, then opens its live result (docs/reference/01-authoring.md §4);
 * with the user's load agents online, the run-on choice beside it (docs/scale-out.md). Not offered to a
 * viewer.
 */
export function RunScriptButton({ editor, disabled }: { editor: PlanEditor; disabled: boolean }) {
  const t = useT();
  // A viewer may not run (docs/adr/0035-workspaces-and-roles.md): the screen's ViewerNotice says why.
  const { readOnly } = useWorkspace();
  if (readOnly) return null;
  if (!editor.runAvailable) {
    return (
      <ComingSoon>
        <Button variant="outline" aria-disabled="true" onClick={preventActivation} data-testid="run-script">
          <Play />
          {t('plans.run')}
        </Button>
      </ComingSoon>
    );
  }
  const busy = editor.busy === 'running';
  return (
    <RunPlacement value={editor.runAgents} onChange={editor.setRunAgents}>
      <Button
        variant="outline"
        disabled={disabled || busy}
        onClick={() => void editor.run()}
        data-testid="run-script"
      >
        <BusyIcon busy={busy} icon={Play} />
        {busy ? t('plans.running') : t('plans.run')}
      </Button>
    </RunPlacement>
  );
}

/**
 * Before Run: the plan's tool, as installed on the server, cannot run this plan (or the server just said
 * so at Run or Validate). Names each reason and offers the built-in engine or Locust in one click
 * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
 */
export function ToolLimitsNotice({ editor }: { editor: PlanEditor }) {
  const limits = editor.toolLimits;
  if (!limits || !editor.runAvailable) return null;
  return (
    <ToolCannotRunAlert
      toolName={limits.toolName}
      reasons={limits.reasons}
      choices={runChoicesAfter(editor.form.tool)}
      onChoose={editor.runElsewhere}
      disabled={editor.busy !== null}
    />
  );
}
