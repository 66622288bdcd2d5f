import { router } from '../../trpc';
import { getPublicPropertyProcedure } from './get-property';
import { searchPublicProcedure } from './search';

/** Anonymous listing procedures for native clients; the same data as GET /api/public/*. */
export const publicRouter = router({
  getProperty: getPublicPropertyProcedure,
  search: searchPublicProcedure,
});
