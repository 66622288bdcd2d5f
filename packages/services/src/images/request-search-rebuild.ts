import type { Logger } from '@staging/platform/logger';
import { withQueueTimeout } from '../staging/staging-queue';
import { enqueueSearchRebuild } from '../search/search-queue';
import type { SearchQueue } from '../search/search-queue';

/**
 * Enqueues the search-document rebuild after a committed image change. Best effort: the change
 * itself is durable and must not be reported as failed because the queue store is down; the
 * failure is logged so the stale document can be rebuilt, and the next change to the property
 * (or a repeated approval) rebuilds it anyway.
 */
export async function requestSearchRebuild(
  deps: { searchQueue: SearchQueue; logger: Logger },
  propertyId: string,
): Promise<boolean> {
  try {
    await withQueueTimeout(enqueueSearchRebuild(deps.searchQueue, propertyId), 'search rebuild enqueue');
    return true;
  } catch (error) {
    deps.logger.error({ event: 'search_rebuild.enqueue_failed', propertyId, err: error }, 'search_rebuild.enqueue_failed');
    return false;
  }
}
