const EXTENSIONS: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** "Photo 1 (Living room) staged" + image/jpeg → "photo-1-living-room-staged.jpg": safe on every OS. */
export function downloadFileName(base: string, contentType: string): string {
  const stem = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${stem === '' ? 'photo' : stem}.${EXTENSIONS[contentType] ?? 'img'}`;
}
