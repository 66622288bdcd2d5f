'use client';

import { HttpError, httpErrorFrom, httpErrorOf } from '@/lib/api-errors';

function imagePath(imageId: string): string {
  return `/api/property-images/${encodeURIComponent(imageId)}`;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** What the api answers about a stored original (the part the upload list shows). */
export interface UploadedImage {
  id: string;
  width: number;
  height: number;
  fileName: string | null;
}

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
      if (xhr.status >= 200 && xhr.status < 300) return resolve((JSON.parse(xhr.responseText) as { image: UploadedImage }).image);
      reject(httpErrorFrom(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
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
