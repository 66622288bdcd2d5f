import sharp from 'sharp';
import { isWellFormedId } from '@staging/contracts/ids';
import type { Db } from '@staging/db/client';
import {
  DERIVATIVE_CONTENT_TYPE,
  DERIVATIVE_SIZES,
  derivativeEtag,
  derivativeObjectKey,
} from '@staging/domain/image-derivatives';
import type { DerivativeSize } from '@staging/domain/image-derivatives';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import { ObjectNotFoundError } from '@staging/platform/storage';
import type { Actor } from '../access/property-access';
import { PUBLIC_IMAGE_WHERE } from '../public/public-images';
import { findManageableImage, imageNotFound } from './find-image';

export interface DerivativeDeps {
  db: Db;
  storage: ObjectStorage;
  logger: Logger;
}

/**
 * A derivative the caller may see, not yet read: the route compares `etag` with If-None-Match
 * first, so a revalidation costs the authorization query and nothing from storage.
 */
export interface DerivativeHandle {
  etag: string;
  contentType: string;
  load(): Promise<Buffer>;
}

// Same decompression-bomb bound as uploads (inspect-upload.ts): stored images passed it already,
// this guards provider outputs and legacy rows.
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * Resizes inside a square of the size's edge (never enlarging), applies EXIF orientation to the
 * pixels and encodes WebP. sharp writes no metadata unless asked (no withMetadata/keepExif), so
 * EXIF (GPS included), XMP and IPTC of the source never reach a derivative; colours are
 * converted to sRGB, which is what a browser assumes without a profile.
 */
export async function renderDerivative(source: Buffer, size: DerivativeSize): Promise<Buffer> {
  const recipe = DERIVATIVE_SIZES[size];
  return sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated' })
    .rotate()
    .resize({ width: recipe.maxEdge, height: recipe.maxEdge, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: recipe.quality })
    .toBuffer();
}

// One rendering per key at a time in this process; concurrent requests for a cold thumbnail
// (a gallery page opened by several visitors) wait for it instead of decoding the source again.
const inFlight = new Map<string, Promise<Buffer>>();

/**
 * Reads the stored derivative, rendering and storing it on the first request. Two processes may
 * both render a cold key; they write identical bytes, so the race is harmless.
 */
async function loadDerivative(deps: DerivativeDeps, sourceKey: string, size: DerivativeSize): Promise<Buffer> {
  const key = derivativeObjectKey(sourceKey, size);
  try {
    return await deps.storage.getObject(key);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
  }
  const pending = inFlight.get(key);
  if (pending !== undefined) return pending;
  const rendering = (async () => {
    let source: Buffer;
    try {
      source = await deps.storage.getObject(sourceKey);
    } catch (error) {
      // The row outlived its object (deletion in flight): the same answer as a missing image.
      if (error instanceof ObjectNotFoundError) throw imageNotFound();
      throw error;
    }
    const bytes = await renderDerivative(source, size);
    await deps.storage.putObject(key, bytes, DERIVATIVE_CONTENT_TYPE);
    deps.logger.info({ event: 'image_derivative.rendered', size, bytes: bytes.length }, 'image_derivative.rendered');
    return bytes;
  })();
  inFlight.set(key, rendering);
  try {
    return await rendering;
  } finally {
    inFlight.delete(key);
  }
}

function handle(deps: DerivativeDeps, image: { id: string; objectKey: string }, size: DerivativeSize): DerivativeHandle {
  return {
    etag: derivativeEtag(image.id, size),
    contentType: DERIVATIVE_CONTENT_TYPE,
    load: () => loadDerivative(deps, image.objectKey, size),
  };
}

const SOURCE_SELECT = { id: true, objectKey: true } as const;

/** A derivative of any image of a property the actor manages (pending variants included). */
export async function manageableDerivative(
  deps: DerivativeDeps,
  actor: Actor,
  imageId: string,
  size: DerivativeSize,
): Promise<DerivativeHandle> {
  return handle(deps, await findManageableImage(deps.db, actor, imageId, SOURCE_SELECT), size);
}

/** A derivative of an image anonymous visitors may see (original or APPROVED variant). */
export async function publicDerivative(deps: DerivativeDeps, imageId: string, size: DerivativeSize): Promise<DerivativeHandle> {
  if (!isWellFormedId(imageId)) throw imageNotFound();
  const image = await deps.db.propertyImage.findFirst({ where: { AND: [{ id: imageId }, PUBLIC_IMAGE_WHERE] }, select: SOURCE_SELECT });
  if (image === null) throw imageNotFound();
  return handle(deps, image, size);
}
