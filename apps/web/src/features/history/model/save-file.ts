/** Hands a text to the browser as a file download with the given name. */
export function saveTextFile(text: string, filename: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
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
