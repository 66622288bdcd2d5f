import express from 'express';
import type { Router } from 'express';
import { z } from 'zod';
import { PUBLIC_IMAGE_CACHE_CONTROL } from '@staging/http-edge/public-cache';
import { openPublicImageContent } from '@staging/services/images/image-content';
import { getPublicProperty } from '@staging/services/public/get-public-property';
import { PUBLIC_SEARCH_LIMITS, searchPublicProperties } from '@staging/services/public/search-public-properties';
import type { ApiDeps } from '../api-deps';
import { sendCacheableJson } from '../http/cacheable-json';
import { methodNotAllowed } from '../http/errors';
import type { ReadLimit } from '../http/read-limits';
import { sendImageContent } from './images';

// Query strings arrive as strings (or arrays/objects for repeated or bracketed keys, which are
// refused by the schema instead of being coerced).
const ZSearchQuery = z.object({
  q: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'Must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(PUBLIC_SEARCH_LIMITS.maxLimit))
    .optional(),
  city: z.string().max(PUBLIC_SEARCH_LIMITS.cityMaxLength).optional(),
});

/**
 * Anonymous surfaces: originals and APPROVED variants only (labelled, linked to their original),
 * never a staged cover; PENDING_REVIEW images and their URLs never appear (docs/system.md 3.2, 5.4).
 */
export function createPublicRouter(deps: ApiDeps, readLimit: ReadLimit): Router {
  const router = express.Router();

  router.get('/api/public/properties/:propertyId', readLimit('/api/public/properties/:propertyId'), async (req, res) => {
    const property = await getPublicProperty(deps.db, req.params['propertyId'] ?? '');
    sendCacheableJson(res, { property }, 'public, max-age=60');
  });
  router.all('/api/public/properties/:propertyId', methodNotAllowed(['GET']));

  router.get('/api/public/search', readLimit('/api/public/search'), async (req, res) => {
    const query = ZSearchQuery.parse(req.query);
    const result = await searchPublicProperties(
      { db: deps.db },
      {
        q: query.q ?? '',
        ...(query.limit === undefined ? {} : { limit: query.limit }),
        ...(query.city === undefined ? {} : { city: query.city }),
      },
    );
    sendCacheableJson(res, result, 'public, max-age=30');
  });
  router.all('/api/public/search', methodNotAllowed(['GET']));

  router.get('/api/public/images/:imageId/content', readLimit('/api/public/images/:imageId/content'), async (req, res) => {
    const content = await openPublicImageContent(deps, req.params['imageId'] ?? '');
    await sendImageContent(res, content, PUBLIC_IMAGE_CACHE_CONTROL);
  });
  router.all('/api/public/images/:imageId/content', methodNotAllowed(['GET']));
  return router;
}
