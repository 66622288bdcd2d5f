import { revalidateTag } from 'next/cache';
import { z } from 'zod';
import { isOwnRevalidation } from '@/server/public-page-revalidation';
import { PUBLIC_SEARCH_TAG, publicListingTag } from '@/server/public-page-tags';
import { isWellFormedId } from '@staging/contracts/ids';

export const dynamic = 'force-dynamic';

const ZRevalidation = z.strictObject({ propertyId: z.string().refine(isWellFormedId) });

/**
 * Expires the cached pages that show a property: its listing page in every language and every
 * search page. Called only by this process (public-page-revalidation); anyone else gets 404.
 */
export async function POST(request: Request): Promise<Response> {
  // The same 404 any unknown address gets, with the body every error of the web app carries.
  if (!isOwnRevalidation(request.headers.get('authorization'))) {
    return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 });
  }
  const body = ZRevalidation.safeParse(await request.json().catch(() => null));
  if (!body.success) return Response.json({ error: { code: 'BAD_REQUEST', message: 'propertyId is required' } }, { status: 400 });
  // Expired, not marked stale: the next visitor (a CDN, most likely) must get the new page, not
  // the old one once more while the new one renders; a take-down must not be handed out again.
  revalidateTag(publicListingTag(body.data.propertyId), { expire: 0 });
  revalidateTag(PUBLIC_SEARCH_TAG, { expire: 0 });
  return new Response(null, { status: 204 });
}
