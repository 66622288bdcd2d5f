import { z } from 'zod';
import type { AgentImageDto } from '@staging/contracts/property';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { ZRoomType } from '@staging/domain/room-types';
import type { Actor } from '../access/property-access';
import { findManageableImage } from './find-image';
import type { ImageDeps } from './image-deps';
import { AGENT_IMAGE_SELECT, toAgentImageDto } from './image-dto';
import { assertCanBeCover, makeCover } from './listing-cover';
import { requestSearchRebuild } from './request-search-rebuild';

/** Highest display position; keeps the integer column far from overflow. */
export const MAX_DISPLAY_ORDER = 100_000;

/** Body of PATCH /api/property-images/:imageId: at least one field, unknown fields refused. */
export const ZUpdateImageInput = z
  .strictObject({
    isMain: z.boolean().optional(),
    roomType: ZRoomType.nullable().optional(),
    displayOrder: z.number().int().min(0).max(MAX_DISPLAY_ORDER).optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    error: 'Give at least one of isMain, roomType, displayOrder',
  });

/**
 * Edits an image's cover flag, room type or position.
 *
 * - isMain true on a staged image → STAGED_IMAGE_CANNOT_BE_COVER (docs/system.md 1.5, 4.2), on an
 *   original hidden from the public page → BAD_REQUEST; on a public original it becomes the only
 *   cover (makeCover: under the listing lock, so concurrent cover changes run one after the other).
 * - roomType belongs to originals (the source of truth for generation); a staged image's room is
 *   its original's, so setting it there is a BAD_REQUEST.
 * - displayOrder applies to both.
 */
export async function updatePropertyImage(
  deps: ImageDeps,
  input: { actor: Actor; imageId: string; changes: unknown },
): Promise<AgentImageDto> {
  const image = await findManageableImage(deps.db, input.actor, input.imageId, {
    id: true,
    propertyId: true,
    isStyled: true,
    isPublic: true,
  });
  const changes = ZUpdateImageInput.parse(input.changes);
  if (changes.isMain === true) assertCanBeCover(image, 'isMain');
  if (image.isStyled && changes.roomType !== undefined) {
    throw new AppError(ErrorCode.BAD_REQUEST, 'The room type of a staged image is its original’s.', {
      issues: [{ path: ['roomType'], message: 'Set the room type on the original photo' }],
    });
  }
  const now = deps.clock.now();
  const row = await deps.db.$transaction(async (tx) => {
    if (changes.isMain === true) await makeCover(tx, image, { now, field: 'isMain' });
    const updated = await tx.propertyImage.updateMany({
      where: { id: image.id },
      data: {
        ...(changes.isMain === false ? { isMain: false } : {}),
        ...(changes.roomType === undefined ? {} : { roomType: changes.roomType }),
        ...(changes.displayOrder === undefined ? {} : { displayOrder: changes.displayOrder }),
        updatedAt: now,
      },
    });
    // Deleted by a concurrent request since the access check.
    if (updated.count === 0) throw new AppError(ErrorCode.NOT_FOUND, 'Image not found');
    return tx.propertyImage.findUniqueOrThrow({ where: { id: image.id }, select: AGENT_IMAGE_SELECT });
  });
  deps.logger.info(
    { event: 'property_image.updated', imageId: image.id, propertyId: image.propertyId, actorUserId: input.actor.id, fields: Object.keys(changes) },
    'property_image.updated',
  );
  await requestSearchRebuild(deps, image.propertyId);
  return toAgentImageDto(row);
}
