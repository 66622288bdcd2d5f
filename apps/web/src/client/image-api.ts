'use client';

import { z } from 'zod';
import { HttpError, httpErrorFrom, httpErrorOf } from '@/lib/api-errors';

function imagePath(imageId: string): string {
  return `/api/property-images/${encodeURIComponent(imageId)}`;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** What the api answers about a stored original (the part the upload list shows). */
const ZUploadAnswer = z.object({
  image: z.object({ id: z.string(), width: z.number(), height: z.number(), fileName: z.string().nullable() }),
});

export type UploadedImage = z.infer<typeof ZUploadAnswer>['image'];

/**
 * Uploads an original through the proxied api route. XMLHttpRequest rather than fetch because only
 * XHR reports upload progress (fetch has no upload progress events in browsers).
 */
export function uploadOriginal(options: {
  propertyId: string;
  file: File;
  roomType: string | null;
  onProgress: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<UploadedImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/properties/${encodeURIComponent(options.propertyId)}/images`);
    xhr.responseType = 'text';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(httpErrorFrom(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
      // An answer that cannot be read fails the upload rather than leaving it in progress for good.
      try {
        resolve(ZUploadAnswer.parse(JSON.parse(xhr.responseText)).image);
      } catch (unreadable) {
        reject(unreadable);
      }
    });
    // The UI words these by code, in its language (useErrorSentence).
    xhr.addEventListener('error', () => reject(new HttpError(0, { code: 'NETWORK', message: 'The upload was interrupted' })));
    xhr.addEventListener('abort', () => reject(new HttpError(0, { code: 'ABORTED', message: 'Upload canceled.' })));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    if (options.roomType !== null) form.append('roomType', options.roomType);
    // The file goes last: the api reads the fields before the bytes.
    form.append('file', options.file);
    xhr.send(form);
  });
}

export async function updateImage(imageId: string, changes: { isMain?: boolean; roomType?: string | null }): Promise<void> {
  const response = await fetch(imagePath(imageId), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(changes),
  });
  if (!response.ok) throw await httpErrorOf(response);
}

export async function deleteImage(imageId: string): Promise<void> {
  const response = await fetch(imagePath(imageId), { method: 'DELETE' });
  if (!response.ok) throw await httpErrorOf(response);
}
