import type { DbTransaction } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { coverRefusalOf } from '@staging/domain/listing-cover';
import type { CoverCandidate } from '@staging/domain/listing-cover';
import { imageNotFound } from './find-image';

/**
 * Refuses an image that cannot be the cover, naming `field` (the input that chose it) in the issue:
 * a staged image (docs/system.md 1.5, 4.2) or an original hidden from the public page, which
 * visitors could not see as the cover anyway.
 */
export function assertCanBeCover(image: Omit<CoverCandidate, 'isMain'>, field: string): void {
  const refusal = coverRefusalOf(image);
  if (refusal === 'STAGED') {
    throw new AppError(ErrorCode.STAGED_IMAGE_CANNOT_BE_COVER, 'A staged image can never be the listing cover; choose an original photo.', {
      issues: [{ path: [field], message: 'Staged images cannot be the cover' }],
    });
  }
  if (refusal === 'HIDDEN') {
    throw new AppError(ErrorCode.BAD_REQUEST, 'Only a photo shown on the public page can be the cover; show it first.', {
      issues: [{ path: [field], message: 'Hidden photos cannot be the cover' }],
    });
  }
}

/**
 * Locks the property row for a change of its cover or of a photo's visibility: such changes run one
 * after the other instead of colliding on the one-cover index, and each sees the other's result.
 */
export async function lockListing(tx: DbTransaction, propertyId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "properties" WHERE "id" = ${propertyId} FOR UPDATE`;
}

/**
 * Makes `image` the only cover of its property, inside `tx`. The image is read again under the
 * listing lock, so one hidden or deleted since the caller looked is refused rather than made cover.
 */
export async function makeCover(
  tx: DbTransaction,
  image: { id: string; propertyId: string },
  options: { now: Date; field: string },
): Promise<void> {
  await lockListing(tx, image.propertyId);
  const current = await tx.propertyImage.findUnique({ where: { id: image.id }, select: { isStyled: true, isPublic: true } });
  if (current === null) throw imageNotFound();
  assertCanBeCover(current, options.field);
  await tx.propertyImage.updateMany({
    where: { propertyId: image.propertyId, isMain: true, id: { not: image.id } },
    data: { isMain: false, updatedAt: options.now },
  });
  await tx.propertyImage.update({ where: { id: image.id }, data: { isMain: true, updatedAt: options.now }, select: { id: true } });
}
