import { searchPublicProperties, ZPublicSearchInput, ZPublicSearchResult } from '@staging/services/public/search-public-properties';
import { publicProcedure } from '../../trpc';

/** public.search (query, anonymous): every listing, on the database's search indexes. */
export const searchPublicProcedure = publicProcedure
  .input(ZPublicSearchInput.optional())
  .output(ZPublicSearchResult)
  .query(({ ctx, input }) => searchPublicProperties({ db: ctx.deps.db }, input ?? {}));
