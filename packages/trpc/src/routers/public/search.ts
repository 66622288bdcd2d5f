import { ZPublicSearchInput, ZPublicSearchResult } from '@staging/contracts/public';
import { searchPublicProperties } from '@staging/services/public/search-public-properties';
import { publicProcedure } from '../../trpc';

/** public.search (query, anonymous): reads public_search_documents. */
export const searchPublicProcedure = publicProcedure
  .input(ZPublicSearchInput.optional())
  .output(ZPublicSearchResult)
  .query(({ ctx, input }) =>
    searchPublicProperties({ db: ctx.deps.db }, input ?? {}),
  );
