import { looksLikeHeif, MAX_UPLOAD_BYTES, namesHeif } from '@staging/domain/photo-upload';

/** One file of an upload batch: waiting, on its way, stored, refused before sending, or failed. */
export type UploadState =
  | { kind: 'queued' }
  | { kind: 'uploading'; loaded: number }
  | { kind: 'done'; width: number; height: number }
  | { kind: 'refused'; reason: Refusal }
  // The failure itself, worded at render: a language switch rewords it too.
  | { kind: 'failed'; failure: unknown };

export interface UploadItem {
  key: number;
  file: File;
  state: UploadState;
}

export type Refusal = 'heif' | 'tooLarge';

/**
 * Why a file is not even sent: larger than the api accepts (which would only refuse it after
 * the whole file had travelled), or HEIC by name, declared type or its first bytes.
 */
export async function refusalOf(file: File): Promise<Refusal | undefined> {
  if (file.size > MAX_UPLOAD_BYTES) return 'tooLarge';
  if (namesHeif(file.name, file.type)) return 'heif';
  return looksLikeHeif(new Uint8Array(await file.slice(0, 12).arrayBuffer())) ? 'heif' : undefined;
}

/** Bytes in the megabytes the catalogue's `::unit/megabyte` shows (1024 × 1024, as the list does). */
export const megabytes = (bytes: number) => bytes / (1024 * 1024);

