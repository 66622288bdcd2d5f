import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import type { SearchQueue } from '../search/search-queue';
import type { Clock } from '../staging/staging-deps';
import type { PublicListingChanged } from './request-search-rebuild';

/** What the image use cases need; every image change ends with a search-document rebuild. */
export interface ImageDeps {
  db: Db;
  storage: ObjectStorage;
  searchQueue: SearchQueue;
  logger: Logger;
  clock: Clock;
  /** Where the process caches the public pages (the web): told of each change (requestSearchRebuild). */
  publicListingChanged?: PublicListingChanged | undefined;
}
