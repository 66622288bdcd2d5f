const EXTENSIONS: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * "Salón de Ópera" → "salon-de-opera": letters without accents, digits and single dashes, at most
 * 80 characters, so the name is safe on every OS and in every header; empty when nothing is left.
 */
export function fileNameStem(base: string): string {
  return base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** "Photo 1 (Living room) staged" + image/jpeg → "photo-1-living-room-staged.jpg": safe on every OS. */
export function downloadFileName(base: string, contentType: string): string {
  const stem = fileNameStem(base);
  return `${stem === '' ? 'photo' : stem}.${EXTENSIONS[contentType] ?? 'img'}`;
}

/**
 * The inventory export of a property, named after its title ("Casa Azul" → "casa-azul-inventory.csv")
 * so an agent with several exports tells them apart; a title with nothing portable in it (or not
 * loaded yet) falls back to the property's id.
 */
export function inventoryExportFileName(title: string | undefined, propertyId: string): string {
  const stem = fileNameStem(title ?? '') || fileNameStem(propertyId) || 'property';
  return `${stem}-inventory.csv`;
}
