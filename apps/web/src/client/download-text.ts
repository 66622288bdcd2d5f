'use client';

/**
 * Saves text the page built (a CSV) as a file: a Blob URL on a temporary link with `download`.
 * The URL is revoked on the next task, after the browser has started the download.
 */
export function downloadText(fileName: string, text: string, type: string): void {
  // A byte-order mark, so spreadsheet programs read the UTF-8 (accented names) correctly.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
