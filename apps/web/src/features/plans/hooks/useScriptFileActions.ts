import { useCallback, useState } from 'react';
import { useT } from '@/i18n';
import { downloadBlob } from '@/lib/download';
import type { ToastMessage } from '../components/Toast';
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
 * toast ("Script copied to clipboard!"), Download without a script gives the spec's alert (spec 01 §8).
 */
export function useScriptFileActions(script: ScriptPreview) {
  const t = useT();
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const clearToast = useCallback(() => setToast(null), []);

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
    setToast({
      id: Date.now(),
      kind: copied ? 'success' : 'error',
      text: copied ? t('plans.copied') : t('plans.copyFailed'),
    });
  };

  const download = () => {
    if (!script.script) {
      window.alert(t('plans.noScript'));
      return;
    }
    try {
      downloadBlob(new Blob([script.script], { type: 'text/plain;charset=utf-8' }), script.filename);
    } catch {
      window.alert(t('plans.downloadFailed'));
    }
  };

  return { copy, download, toast, clearToast };
}
