import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { PublicListingChanged } from '../images/request-search-rebuild';
import type { SearchQueue } from '../search/search-queue';
import type { Clock } from '../staging/staging-deps';

/** What approval and rejection need: both change public visibility, so both rebuild search. */
export interface ReviewDeps {
  db: Db;
  searchQueue: SearchQueue;
  logger: Logger;
  clock: Clock;
  /** Where the process caches the public pages (the web): told of each change (requestSearchRebuild). */
  publicListingChanged?: PublicListingChanged | undefined;
}
