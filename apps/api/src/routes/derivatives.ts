import express from 'express';
import type { Response, Router } from 'express';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { ifNoneMatchHits, isDerivativeSize } from '@staging/domain/image-derivatives';
import type { DerivativeSize } from '@staging/domain/image-derivatives';
import { PUBLIC_IMAGE_CACHE_CONTROL } from '@staging/http-edge/public-cache';
import { manageableDerivative, publicDerivative } from '@staging/services/images/derivatives';
import type { DerivativeHandle } from '@staging/services/images/derivatives';
import { IMAGE_NOT_FOUND } from '@staging/services/images/find-image';
import type { ApiDeps } from '../api-deps';
import { actorOf } from '../auth/request-session';
import { methodNotAllowed } from '../http/errors';
import { limitedSession } from '../http/read-limits';
import type { ReadLimit } from '../http/read-limits';

/**
 * Private answers are revalidated on every use (no-cache), so the agent's session and access are
 * checked on every request; the ETag makes that a 304 without bytes. Public derivatives name
 * immutable bytes, but the image may be withdrawn, so they are kept only within that bound
 * (`PUBLIC_IMAGE_CACHE_CONTROL`).
 */
const PRIVATE_DERIVATIVE_CACHE = 'private, no-cache';

function sizeParam(raw: string | undefined): DerivativeSize {
  // An unknown size reads like an unknown image: no list of valid sizes to probe.
  if (raw === undefined || !isDerivativeSize(raw)) throw new AppError(ErrorCode.NOT_FOUND, IMAGE_NOT_FOUND);
  return raw;
}

async function sendDerivative(req: express.Request, res: Response, derivative: DerivativeHandle, cacheControl: string): Promise<void> {
  res.setHeader('ETag', derivative.etag);
  res.setHeader('Cache-Control', cacheControl);
  if (ifNoneMatchHits(req.get('if-none-match'), derivative.etag)) {
    res.status(304).end();
    return;
  }
  const bytes = await derivative.load();
  res.status(200).type(derivative.contentType).send(bytes);
}

/** Thumbnail and display sizes of stored images, rendered once with sharp and kept in storage. */
export function createDerivativeRouter(deps: ApiDeps, readLimit: ReadLimit): Router {
  const router = express.Router();

  // Authorization (the read limit resolves the session) first, also for a request that only
  // revalidates: a 304 would confirm that the image exists to someone who may not see it.
  router.get('/api/property-images/:imageId/derivatives/:size', readLimit('/api/property-images/:imageId/derivatives/:size'), async (req, res) => {
    const actor = actorOf(limitedSession(req));
    const size = sizeParam(req.params['size']);
    const derivative = await manageableDerivative(deps, actor, req.params['imageId'] ?? '', size);
    await sendDerivative(req, res, derivative, PRIVATE_DERIVATIVE_CACHE);
  });
  router.all('/api/property-images/:imageId/derivatives/:size', methodNotAllowed(['GET']));

  router.get('/api/public/images/:imageId/derivatives/:size', readLimit('/api/public/images/:imageId/derivatives/:size'), async (req, res) => {
    const size = sizeParam(req.params['size']);
    const derivative = await publicDerivative(deps, req.params['imageId'] ?? '', size);
    await sendDerivative(req, res, derivative, PUBLIC_IMAGE_CACHE_CONTROL);
  });
  router.all('/api/public/images/:imageId/derivatives/:size', methodNotAllowed(['GET']));
  return router;
}
