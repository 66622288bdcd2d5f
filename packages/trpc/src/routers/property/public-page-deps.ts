import type { PublicPageDeps } from '@staging/services/public-page/public-page-deps';
import type { TrpcDeps } from '../../context';

/** The public-page use cases' deps from the tRPC deps. */
export function publicPageDepsOf(deps: TrpcDeps): PublicPageDeps {
  return { db: deps.db, searchQueue: deps.searchQueue, logger: deps.logger, clock: deps.clock, publicListingChanged: deps.publicListingChanged };
}
