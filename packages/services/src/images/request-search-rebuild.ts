import type { Logger } from '@staging/platform/logger';
import { withQueueTimeout } from '../staging/staging-queue';
import { enqueueSearchRebuild } from '../search/search-queue';
import type { SearchQueue } from '../search/search-queue';

/**
 * Called with the property of every committed change to what anonymous visitors see, in the
 * process that made it: the web expires its cached listing page right away, so that the agent who
 * made the change sees it on the next view (docs/decisions/public-pages.md "Public pages a CDN can keep").
 */
export type PublicListingChanged = (propertyId: string) => void;

/**
 * Enqueues the search-document rebuild after a committed image change, and tells this process's
 * cache of the public pages, if it has one. Best effort: the change itself is durable and must
 * not be reported as failed because the queue store is down; the failure is logged so the stale
 * document can be rebuilt, and the next change to the property (or a repeated approval) rebuilds
 * it anyway.
 */
export async function requestSearchRebuild(
  deps: { searchQueue: SearchQueue; logger: Logger; publicListingChanged?: PublicListingChanged | undefined },
  propertyId: string,
): Promise<boolean> {
  deps.publicListingChanged?.(propertyId);
  try {
    await withQueueTimeout(enqueueSearchRebuild(deps.searchQueue, propertyId), 'search rebuild enqueue');
    return true;
  } catch (error) {
    deps.logger.error({ event: 'search_rebuild.enqueue_failed', propertyId, err: error }, 'search_rebuild.enqueue_failed');
    return false;
  }
}
