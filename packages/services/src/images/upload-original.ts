import { randomUUID } from 'node:crypto';
import type { AgentImageDto } from '@staging/contracts/property';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { cleanFileName } from '@staging/domain/photo-upload';
import type { RoomType } from '@staging/domain/room-types';
import { assertCanManageProperty, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { FOREIGN_KEY_VIOLATION, postgresErrorCode } from '../inventory/postgres-errors';
import type { ImageDeps } from './image-deps';
import { AGENT_IMAGE_SELECT, toAgentImageDto } from './image-dto';
import { inspectUpload } from './inspect-upload';
import { requestSearchRebuild } from './request-search-rebuild';

/** Storage key of an original: one prefix per property, the image ID as file name. */
export function originalObjectKey(propertyId: string, imageId: string, extension: string): string {
  return `originals/${propertyId}/${imageId}.${extension}`;
}

/**
 * Authorization only, so the HTTP layer can refuse before it reads a 15 MiB body: NOT_FOUND unless
 * the actor owns, is assigned to, or (admin) supports the property.
 */
export async function assertCanUploadTo(deps: Pick<ImageDeps, 'db'>, actor: Actor, propertyId: string): Promise<void> {
  await assertCanManageProperty(deps.db, actor, propertyId);
}

/**
 * Stores an uploaded original: validated by decoding it (never by its declared type), written to
 * `originals/<propertyId>/<imageId>.<ext>`, then its row, public or hidden as the property's
 * newImagesPublic says. If the row cannot be written the object is removed again, so a failed
 * upload leaves nothing behind.
 */
export async function uploadOriginalImage(
  deps: ImageDeps,
  input: { actor: Actor; propertyId: string; bytes: Buffer; roomType: RoomType | null; fileName?: string | undefined },
): Promise<AgentImageDto> {
  await assertCanManageProperty(deps.db, input.actor, input.propertyId);
  const image = await inspectUpload(input.bytes);
  const id = randomUUID();
  const objectKey = originalObjectKey(input.propertyId, id, image.extension);
  await deps.storage.putObject(objectKey, input.bytes, image.contentType);
  const now = deps.clock.now();
  let row;
  try {
    row = await deps.db.$transaction(async (tx) => {
      // Parallel uploads to one property would all read the same last position: the property row
      // lock makes them take turns. NO KEY UPDATE does not block inserts that merely reference
      // the property (a staged result, a job). The same read takes the agent's default for new
      // photos, so a photo uploaded after the default changed follows the new one.
      const [property] = await tx.$queryRaw<{ newImagesPublic: boolean }[]>`
        SELECT "newImagesPublic" FROM "properties" WHERE "id" = ${input.propertyId} FOR NO KEY UPDATE`;
      const last = await tx.propertyImage.aggregate({
        where: { propertyId: input.propertyId },
        _max: { displayOrder: true },
      });
      return tx.propertyImage.create({
        data: {
          id,
          propertyId: input.propertyId,
          objectKey,
          contentType: image.contentType,
          width: image.width,
          height: image.height,
          bytes: input.bytes.length,
          fileName: cleanFileName(input.fileName),
          // New photos go to the end of the gallery.
          displayOrder: (last._max.displayOrder ?? -1) + 1,
          roomType: input.roomType,
          // No row: the property was deleted meanwhile, and the insert's foreign key refuses it.
          isPublic: property?.newImagesPublic ?? false,
          createdAt: now,
          updatedAt: now,
        },
        select: AGENT_IMAGE_SELECT,
      });
    });
  } catch (error) {
    await deps.storage.deleteObject(objectKey).catch((cleanupError: unknown) => {
      deps.logger.error({ event: 'image_upload.cleanup_failed', objectKey, err: cleanupError }, 'image_upload.cleanup_failed');
    });
    // The property was deleted while the bytes were being stored.
    if (postgresErrorCode(error) === FOREIGN_KEY_VIOLATION) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
    throw error;
  }
  deps.logger.info(
    { event: 'property_image.uploaded', imageId: id, propertyId: input.propertyId, actorUserId: input.actor.id, bytes: input.bytes.length },
    'property_image.uploaded',
  );
  await requestSearchRebuild(deps, input.propertyId);
  return toAgentImageDto(row);
}
