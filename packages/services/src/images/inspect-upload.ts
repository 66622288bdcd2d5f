import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { AppError, ErrorCode, ErrorReason } from '@staging/domain/errors';
import { HEIF_REFUSAL, looksLikeHeif } from '@staging/domain/photo-upload';
import { decodesCompletely } from './decodes-completely';

/** Formats accepted for originals: what browsers display and the provider accepts as input. */
export const UPLOAD_FORMATS = {
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  png: { contentType: 'image/png', extension: 'png' },
  webp: { contentType: 'image/webp', extension: 'webp' },
} as const;

export type UploadFormat = keyof typeof UPLOAD_FORMATS;

/**
 * Decompression-bomb guard: a few-KB PNG can declare 50k x 50k pixels. 50 megapixels covers any
 * camera a listing photo comes from.
 */
const MAX_INPUT_PIXELS = 50_000_000;

export interface InspectedImage {
  format: UploadFormat;
  contentType: string;
  extension: string;
  /** Displayed size, i.e. after EXIF orientation. */
  width: number;
  height: number;
}

function notAnImage(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST, 'File must be a complete JPEG, PNG or WebP image', { reason: ErrorReason.IMAGE_UNREADABLE });
}

/**
 * Proves that `bytes` is a single-frame JPEG, PNG or WebP that decodes completely: the header
 * alone would accept a truncated upload, so the image data is decoded too
 * ({@link decodesCompletely}). The declared Content-Type of the upload is ignored; the bytes
 * decide.
 */
export async function inspectUpload(bytes: Buffer): Promise<InspectedImage> {
  if (bytes.length === 0) throw notAnImage();
  // Named before decoding: a HEIC from a phone is the likeliest refusal, and "not an image"
  // would tell its sender nothing about what to do.
  if (looksLikeHeif(bytes)) throw new AppError(ErrorCode.BAD_REQUEST, HEIF_REFUSAL, { reason: ErrorReason.IMAGE_HEIF });
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw notAnImage();
  }
  const format = metadata.format;
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') throw notAnImage();
  if ((metadata.pages ?? 1) > 1) {
    throw new AppError(ErrorCode.BAD_REQUEST, 'Animated or multi-page images are not accepted', { reason: ErrorReason.IMAGE_MULTI_FRAME });
  }
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) throw notAnImage();
  if (!(await decodesCompletely(bytes, MAX_INPUT_PIXELS))) throw notAnImage();
  return { format, ...UPLOAD_FORMATS[format], width, height };
}
