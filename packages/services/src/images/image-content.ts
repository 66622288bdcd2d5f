import { Readable } from 'node:stream';
import type { Db } from '@staging/db/client';
import type { ObjectStorage } from '@staging/platform/storage';
import { ObjectNotFoundError } from '@staging/platform/storage';
import type { Actor } from '../access/property-access';
import { publicDerivative } from './derivatives';
import type { DerivativeDeps } from './derivatives';
import { findManageableImage, imageNotFound } from './find-image';

export interface ImageContent {
  stream: Readable;
  contentType: string;
}

async function open(storage: ObjectStorage, image: { objectKey: string; contentType: string }): Promise<ImageContent> {
  try {
    return { stream: await storage.getObjectStream(image.objectKey), contentType: image.contentType };
  } catch (error) {
    // The row outlived its object (deletion in flight): the same answer as a missing image.
    if (error instanceof ObjectNotFoundError) throw imageNotFound();
    throw error;
  }
}

const CONTENT_SELECT = { objectKey: true, contentType: true } as const;

/** Bytes of any image of a property the actor manages, pending variants included (review). */
export async function openManageableImageContent(
  deps: { db: Db; storage: ObjectStorage },
  actor: Actor,
  imageId: string,
): Promise<ImageContent> {
  const image = await findManageableImage(deps.db, actor, imageId, CONTENT_SELECT);
  return open(deps.storage, image);
}

/**
 * Bytes of an image anonymous visitors may see: an original or an APPROVED variant. Anything
 * else, PENDING_REVIEW above all, is NOT_FOUND, so a leaked or guessed ID reveals nothing. What
 * is served is the display derivative, never the stored bytes: it carries no metadata, so the
 * EXIF GPS position of an agent's camera never reaches a visitor.
 */
export async function openPublicImageContent(deps: DerivativeDeps, imageId: string): Promise<ImageContent> {
  const derivative = await publicDerivative(deps, imageId, 'display');
  return { stream: Readable.from(await derivative.load()), contentType: derivative.contentType };
}
