import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { SearchQueue } from '../search/search-queue';
import type { Clock } from '../staging/staging-deps';

/** What approval and rejection need: both change public visibility, so both rebuild search. */
export interface ReviewDeps {
  db: Db;
  searchQueue: SearchQueue;
  logger: Logger;
  clock: Clock;
}
