import { getWebDeps } from '@/server/deps';

export const dynamic = 'force-dynamic';

// The shared router runs in this process (no hop to the api): the session cookie is resolved
// against the same sessions table, and the staging submission is produced from here.
function handler(request: Request): Promise<Response> {
  return getWebDeps().handleTrpc(request);
}

export { handler as GET, handler as POST };
