/** Saves a blob as a file through a temporary link (the browser's own download). */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the blob after the click returns; revoke a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a text as a file with the given name. */
export function downloadText(text: string, filename: string, type = 'text/plain;charset=utf-8'): void {
  downloadBlob(new Blob([text], { type }), filename);
}
