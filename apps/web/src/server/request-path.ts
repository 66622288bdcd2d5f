/**
 * Request header the proxy (src/proxy.ts) sets to the path and query of the page being rendered:
 * layouts cannot see the URL, and the sign-in redirect must send the user back to it.
 */
export const REQUEST_PATH_HEADER = 'x-staging-request-path';
