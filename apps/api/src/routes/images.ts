import express from 'express';
import type { Response, Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { isWellFormedId } from '@staging/contracts/ids';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { MAX_UPLOAD_BYTES } from '@staging/domain/photo-upload';
import { ZRoomType } from '@staging/domain/room-types';
import { deletePropertyImage } from '@staging/services/images/delete-image';
import { openManageableImageContent } from '@staging/services/images/image-content';
import type { ImageContent } from '@staging/services/images/image-content';
import { updatePropertyImage } from '@staging/services/images/update-image';
import { assertCanUploadTo, uploadOriginalImage } from '@staging/services/images/upload-original';
import { PROPERTY_NOT_FOUND } from '@staging/services/access/property-access';
import type { ApiDeps } from '../api-deps';
import { actorOf, requireActor } from '../auth/request-session';
import { methodNotAllowed } from '../http/errors';
import { readImageUpload } from '../http/read-image-upload';
import { limitedSession } from '../http/read-limits';
import type { ReadLimit } from '../http/read-limits';

/**
 * Streams stored bytes (chunked: the object, not the row's byte count, is the truth about its
 * length). A storage failure mid-stream can only end the connection.
 */
export async function sendImageContent(res: Response, content: ImageContent, cacheControl: string): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', content.contentType);
  res.setHeader('Cache-Control', cacheControl);
  await pipeline(content.stream, res);
}

/**
 * The agents' image routes (docs/system.md 4.2), all cookie-authenticated; anyone but the property's
 * owning or assigned agents (and admins, docs/decisions/api.md "Admin access to properties") gets
 * 404.
 */
export function createImageRouter(deps: ApiDeps, readLimit: ReadLimit): Router {
  const router = express.Router();
  const json = express.json({ limit: '4kb', strict: true, type: () => true });

  router.post('/api/properties/:propertyId/images', async (req, res) => {
    const actor = await requireActor(deps, req);
    const propertyId = req.params['propertyId'] ?? '';
    if (!isWellFormedId(propertyId)) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
    // Authorized before the body is read: a stranger's 15 MiB are not worth receiving.
    await assertCanUploadTo(deps, actor, propertyId);
    const upload = await readImageUpload(req, { fileField: 'file', maxFileBytes: MAX_UPLOAD_BYTES, allowedFields: ['roomType'] });
    const roomTypeField = upload.fields.get('roomType');
    const roomType = roomTypeField === undefined || roomTypeField === '' ? null : ZRoomType.safeParse(roomTypeField);
    if (roomType !== null && !roomType.success) {
      throw new AppError(ErrorCode.BAD_REQUEST, 'roomType must be one of the room types', {
        issues: [{ path: ['roomType'], message: 'Unknown room type' }],
      });
    }
    const image = await uploadOriginalImage(deps, {
      actor,
      propertyId,
      bytes: upload.bytes,
      roomType: roomType === null ? null : roomType.data,
      fileName: upload.fileName,
    });
    res.status(201).json({ image });
  });
  router.all('/api/properties/:propertyId/images', methodNotAllowed(['POST']));

  router.patch('/api/property-images/:imageId', json, async (req, res) => {
    const actor = await requireActor(deps, req);
    const image = await updatePropertyImage(deps, { actor, imageId: req.params['imageId'] ?? '', changes: req.body ?? {} });
    res.json({ image });
  });

  router.delete('/api/property-images/:imageId', async (req, res) => {
    const actor = await requireActor(deps, req);
    await deletePropertyImage(deps, { actor, imageId: req.params['imageId'] ?? '' });
    res.status(204).end();
  });
  router.all('/api/property-images/:imageId', methodNotAllowed(['PATCH', 'DELETE']));

  router.get('/api/property-images/:imageId/content', readLimit('/api/property-images/:imageId/content'), async (req, res) => {
    const actor = actorOf(limitedSession(req));
    const content = await openManageableImageContent(deps, actor, req.params['imageId'] ?? '');
    // Pending variants are private: no shared cache may keep them.
    await sendImageContent(res, content, 'private, no-store');
  });
  router.all('/api/property-images/:imageId/content', methodNotAllowed(['GET']));
  return router;
}
