import { forwardToApi } from '@/server/forward-to-api';

export const dynamic = 'force-dynamic';

// Served by the api service; see forwardToApi for why this is a route handler and not a rewrite.
export { forwardToApi as GET, forwardToApi as POST, forwardToApi as PATCH, forwardToApi as PUT, forwardToApi as DELETE };
