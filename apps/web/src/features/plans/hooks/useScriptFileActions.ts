import { useNotice } from '@/components/notices';
import { useT } from '@/i18n';
import { downloadBlob } from '@/lib/download';
import type { ScriptPreview } from './useScriptPreview';

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copy and Download of the generated script, shared by the performance screens: Copy confirms with a
 * notice ("Script copied to clipboard!"), Download without a script gives the error notice of
 * docs/reference/01-authoring.md §8.
 */
export function useScriptFileActions(script: ScriptPreview) {
  const t = useT();
  const notice = useNotice();

  const copy = async () => {
    if (!script.script) return;
    let copied: boolean;
    try {
      await navigator.clipboard.writeText(script.script);
      copied = true;
    } catch {
      // No clipboard API or no permission (an insecure origin): the older selection copy still works.
      copied = copyWithSelection(script.script);
    }
    if (copied) notice.success(t('plans.copied'));
    else notice.error(t('plans.copyFailed'));
  };

  const download = () => {
    if (!script.script) {
      notice.error(t('plans.noScript'));
      return;
    }
    try {
      downloadBlob(new Blob([script.script], { type: 'text/plain;charset=utf-8' }), script.filename);
    } catch {
      notice.error(t('plans.downloadFailed'));
    }
  };

  return { copy, download };
}
