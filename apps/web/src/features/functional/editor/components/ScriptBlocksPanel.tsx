import { FileCode2, Trash2 } from 'lucide-react';
import type { Dispatch } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { useT, type Translate } from '@/i18n';
import { SectionTitle } from '@/features/call-editor';
import {
  SCRIPT_EVENTS,
  scriptCount,
  type EventScriptsForm,
  type ScriptOwner,
} from '../model/collection-form';
import type { FunctionalFormAction } from '../model/functional-form';

export interface ScriptBlocksPanelProps {
  scripts: EventScriptsForm | undefined;
  owner: ScriptOwner;
  dispatch: Dispatch<FunctionalFormAction>;
  /** The problem the plan's check found in these scripts, if any. */
  error?: string;
  testId: string;
}

/**
 * A Postman collection's scripts that run as scripts, in the sandbox (docs/adr/0029-postman-collections.md
 * §1): each block with whose it is (collection, folder, request) and its JavaScript, readable and
 * editable. The tests that became rules are in the rules panel; these are the ones that did not.
 */
export function ScriptBlocksPanel({ scripts, owner, dispatch, error, testId }: ScriptBlocksPanelProps) {
  const t = useT();
  if (scripts === undefined || scriptCount(scripts) === 0) return null;
  const titleId = `${testId}-scripts-title`;
  return (
    <section className="space-y-3" aria-labelledby={titleId} data-testid={`${testId}-scripts`}>
      <SectionTitle
        id={titleId}
        icon={FileCode2}
        title={t('functional.postman.scriptsTitle')}
        text={t('functional.postman.scriptsText')}
      />
      {error && (
        <p className="text-[13px] text-destructive" role="alert" data-testid={`${testId}-scripts-error`}>
          {error}
        </p>
      )}
      {SCRIPT_EVENTS.map((event) =>
        scripts[event].map((block, index) => {
          const blockTestId = `${testId}-script-${event}-${index}`;
          const label = t('functional.postman.scriptLabel', {
            event: t(`functional.postman.event.${event}`),
            origin: originText(block.origin, t),
          });
          return (
            <div key={block.id} className="space-y-1.5" data-testid={blockTestId}>
              <div className="flex items-center justify-between gap-2">
                <span className="text-[13px] font-medium" data-testid={`${blockTestId}-label`}>
                  {label}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={t('functional.postman.removeScript', { label })}
                  onClick={() => dispatch({ type: 'removeScript', owner, event, blockId: block.id })}
                  data-testid={`${blockTestId}-remove`}
                >
                  <Trash2 />
                </Button>
              </div>
              <Textarea
                aria-label={label}
                rows={Math.min(14, Math.max(3, block.source.split('\n').length))}
                value={block.source}
                spellCheck={false}
                onChange={(e) =>
                  dispatch({ type: 'setScript', owner, event, blockId: block.id, source: e.target.value })
                }
                className="font-mono text-[12.5px]"
                data-testid={`${blockTestId}-source`}
              />
            </div>
          );
        }),
      )}
    </section>
  );
}

/** Whose a script is, in the screen's language: "collection", "request", "folder Orders"; else as written. */
function originText(origin: string, t: Translate): string {
  if (origin === 'collection' || origin === 'request') return t(`functional.postman.origin.${origin}`);
  const folder = /^folder (.+)$/.exec(origin);
  return folder?.[1] ? t('functional.postman.origin.folder', { name: folder[1] }) : origin;
}
