import type { Readable } from 'node:stream';
import type { Db } from '@staging/db/client';
import type { ObjectStorage } from '@staging/platform/storage';
import { ObjectNotFoundError } from '@staging/platform/storage';
import { PUBLIC_IMAGE_WHERE } from '../public/public-images';
import type { Actor } from '../access/property-access';
import { findManageableImage, imageNotFound } from './find-image';
import { isWellFormedId } from './ids';

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
 * else, PENDING_REVIEW above all, is NOT_FOUND, so a leaked or guessed ID reveals nothing.
 */
export async function openPublicImageContent(deps: { db: Db; storage: ObjectStorage }, imageId: string): Promise<ImageContent> {
  if (!isWellFormedId(imageId)) throw imageNotFound();
  const image = await deps.db.propertyImage.findFirst({
    where: { AND: [{ id: imageId }, PUBLIC_IMAGE_WHERE] },
    select: CONTENT_SELECT,
  });
  if (image === null) throw imageNotFound();
  return open(deps.storage, image);
}
