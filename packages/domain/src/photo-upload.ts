/**
 * Rules about uploaded photos shared by the dashboard (checked before a byte is sent) and the api
 * (checked again on the bytes): HEIC refusal, the size limit, the small-photo warning and the file
 * name kept.
 */

/**
 * Largest accepted upload. The api stops reading the stream beyond it; the dashboard refuses a
 * larger file before sending it, so nobody waits for 16 MB to travel only to be refused.
 */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;

/**
 * The provider renders 1024 px on the short edge (1024×1024, 1536×1024, 1024×1536); a photo with
 * a shorter short edge is upscaled by the model and comes back soft (docs/decisions/web.md "Photos
 * too small to stage well"). A warning, not a refusal: a small photo can still be listed.
 */
export const MIN_STAGING_SHORT_EDGE = 1024;

export function isTooSmallToStage(width: number, height: number): boolean {
  return Math.min(width, height) < MIN_STAGING_SHORT_EDGE;
}

export const HEIF_REFUSAL =
  'HEIC/HEIF photos (the iPhone camera default) are not accepted. Export the photo as JPEG ' +
  '(on iPhone: Settings › Camera › Formats › Most Compatible, or share it as JPEG) and upload it again.';

// ISO base media "ftyp" brands of HEIF/HEIC still images and sequences (ISO/IEC 23008-12).
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

/** True when the first bytes are an ISO-BMFF `ftyp` box whose major brand is a HEIF one. */
export function looksLikeHeif(head: Uint8Array): boolean {
  if (head.length < 12) return false;
  const text = (from: number) => String.fromCharCode(...head.subarray(from, from + 4));
  return text(4) === 'ftyp' && HEIF_BRANDS.has(text(8));
}

/** By name or declared type, for the browser's check before reading any bytes. */
export function namesHeif(fileName: string, mimeType: string): boolean {
  return /\.(heic|heif)$/i.test(fileName) || /^image\/hei[cf](-sequence)?$/i.test(mimeType);
}

export const FILE_NAME_MAX_LENGTH = 255;

/**
 * The label kept for an upload's file name: path parts dropped (some browsers send them), control
 * characters removed, trimmed and bounded; null when nothing printable is left.
 */
export function cleanFileName(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, FILE_NAME_MAX_LENGTH).trim();
  return cleaned === '' ? null : cleaned;
}
