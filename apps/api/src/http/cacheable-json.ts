import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * Sends `body` as JSON that a CDN or browser may keep for the time `cacheControl` allows, with a
 * strong ETag of the exact bytes; res.send answers 304 without a body when If-None-Match carries
 * it (req.fresh), so revalidating an unchanged listing costs the read but not the transfer.
 * The JSON is encoded to bytes once and both hashed and sent as such: given the string, the hash
 * and res.send each encoded a search page (tens of KB) again.
 */
export function sendCacheableJson(res: Response, body: unknown, cacheControl: string): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', `"${createHash('sha1').update(bytes).digest('base64url')}"`);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(bytes);
}
