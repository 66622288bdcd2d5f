import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '@staging/platform/logger';

/**
 * How the cached public pages learn of a change (docs/decisions/public-pages.md "Public pages a
 * CDN can keep"). Next.js expires cached pages by tag only inside a request of its own, so this process, on
 * hearing that a listing's search document was rebuilt, asks its own revalidation route to do
 * it, over loopback, with a secret that only this process holds: every web instance keeps its
 * own cache and so listens and expires for itself, and no other process needs to know where the
 * web instances are.
 */
export const REVALIDATE_PUBLIC_PAGES_PATH = '/api/public-pages/revalidate';

declare global {
  // Made on first use and kept on globalThis: the start-up hook that sends and the route that
  // checks are separate bundles of the same process.
  var __publicPageRevalidationSecret: string | undefined;
}

function secret(): string {
  globalThis.__publicPageRevalidationSecret ??= randomBytes(32).toString('base64url');
  return globalThis.__publicPageRevalidationSecret;
}

/** True when `authorization` carries this process's secret. */
export function isOwnRevalidation(authorization: string | null): boolean {
  const expected = Buffer.from(`Bearer ${secret()}`);
  const given = Buffer.from(authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Expires the cached pages that show `propertyId` (its listing page and every search page) by a
 * request to this server's revalidation route at `origin` (this process's loopback address).
 */
export async function revalidatePublicPagesOf(origin: string, propertyId: string, logger: Logger): Promise<void> {
  const response = await fetch(new URL(REVALIDATE_PUBLIC_PAGES_PATH, origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${secret()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ propertyId }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`public page revalidation answered ${response.status}`);
  logger.debug({ event: 'public_pages.revalidated', propertyId }, 'public pages revalidated');
}
