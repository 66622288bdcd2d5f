import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * Sends `body` as JSON that a CDN or browser may keep for the time `cacheControl` allows, with a
 * strong ETag of the exact bytes; res.send answers 304 without a body when If-None-Match carries
 * it (req.fresh), so revalidating an unchanged listing costs the read but not the transfer.
 */
export function sendCacheableJson(res: Response, body: unknown, cacheControl: string): void {
  const json = JSON.stringify(body);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', `"${createHash('sha1').update(json).digest('base64url')}"`);
  res.type('application/json').send(json);
}
