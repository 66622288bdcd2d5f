import { isWellFormedId } from '@staging/contracts/ids';
import type { Db, DbTransaction, Prisma } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { accessiblePropertyFilter } from '../access/property-access';
import type { Actor } from '../access/property-access';

/**
 * One message for "no such image" and "not yours", so probing image IDs reveals nothing, not even
 * that the image exists (docs/system.md 5.4).
 */
export const IMAGE_NOT_FOUND = 'Image not found';

export function imageNotFound(): AppError {
  return new AppError(ErrorCode.NOT_FOUND, IMAGE_NOT_FOUND);
}

/**
 * The image `imageId` if `actor` may manage its property (owner, assigned agent, admin), with
 * the columns of `select`; NOT_FOUND otherwise. One query: access is part of the WHERE clause.
 */
export async function findManageableImage<S extends Prisma.PropertyImageSelect>(
  db: Db | DbTransaction,
  actor: Actor,
  imageId: string,
  select: S,
): Promise<Prisma.PropertyImageGetPayload<{ select: S }>> {
  if (!isWellFormedId(imageId)) throw imageNotFound();
  const image = await db.propertyImage.findFirst({
    where: { id: imageId, property: accessiblePropertyFilter(actor) },
    select,
  });
  if (image === null) throw imageNotFound();
  return image;
}
