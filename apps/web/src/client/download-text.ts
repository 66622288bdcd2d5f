'use client';

/** Starts a download of `href` through a temporary link with `download` (the browser streams it to disk). */
export function downloadUrl(href: string, fileName = ''): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Saves text the page built (a CSV) as a file: a Blob URL on a temporary link with `download`.
 * The URL is revoked on the next task, after the browser has started the download.
 */
export function downloadText(fileName: string, text: string, type: string): void {
  // A byte-order mark, so spreadsheet programs read the UTF-8 (accented names) correctly.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: `${type};charset=utf-8` }));
  downloadUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
