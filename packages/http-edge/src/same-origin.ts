const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginCheckInput {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The host the client asked for, per the trusted-proxy rule (request-source.ts). */
  host: string | undefined;
  /** Browser origins besides the request's own host allowed to send state-changing requests. */
  allowedOrigins: readonly string[];
}

function normalizedOrigin(origin: string): string {
  return origin.toLowerCase().replace(/\/+$/, '');
}

/**
 * The one CSRF rule of the api, the tRPC router and the web app: true when a browser sent a
 * state-changing request from another site. SameSite=Lax already keeps the session cookie off
 * most cross-site POSTs; this is the second layer (a sibling subdomain is "same-site" for
 * SameSite but not here).
 *
 * - GET, HEAD and OPTIONS change nothing and pass.
 * - An Origin header must be one of `allowedOrigins` or name the request's own host; "null"
 *   (sandboxed frames, file://) never does.
 * - Without Origin, `Sec-Fetch-Site: cross-site` is refused.
 * - With neither header the caller is not a browser (native client, curl, server-to-server): no
 *   ambient cookie is at play, so it passes.
 */
export function isCrossSiteRequest(input: OriginCheckInput): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  if (input.origin === undefined) return input.secFetchSite === 'cross-site';
  const origin = normalizedOrigin(input.origin);
  if (input.allowedOrigins.some((allowed) => normalizedOrigin(allowed) === origin)) return false;
  const parsed = URL.parse(origin);
  if (parsed === null || parsed.host === '' || input.host === undefined) return true;
  // By host only: behind a TLS-terminating proxy the app may not see the browser's scheme, and a
  // page on our own host is no cross-site attacker.
  return parsed.host !== input.host.toLowerCase();
}
