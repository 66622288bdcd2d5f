import 'server-only';
import { requestSourceOfHeaders } from '@staging/http-edge/request-source';
import type { RequestSource } from '@staging/http-edge/request-source';
import { isCrossSiteRequest } from '@staging/http-edge/same-origin';
import { getWebDeps } from './deps';

/**
 * Who sent this request and how, per TRUSTED_PROXY_HOPS (packages/http-edge/src/request-source.ts):
 * the client's address for the login limits, the host for the same-origin rule, HTTPS for cookies.
 */
export function requestSourceOf(request: Request): RequestSource {
  return requestSourceOfHeaders(request.headers, getWebDeps().config.trustedProxyHops);
}

/**
 * CSRF guard for state-changing requests: the rule the api and the tRPC router apply too
 * (packages/http-edge/src/same-origin.ts). The dashboard has no browser origin but its own host.
 */
export function isSameOriginRequest(request: Request, source: RequestSource = requestSourceOf(request)): boolean {
  return !isCrossSiteRequest({
    method: request.method,
    origin: request.headers.get('origin') ?? undefined,
    secFetchSite: request.headers.get('sec-fetch-site') ?? undefined,
    host: source.host,
    allowedOrigins: [],
  });
}

/** True when the browser reached the outermost trusted proxy over HTTPS (the web never serves TLS itself). */
export function isHttpsRequest(request: Request): boolean {
  return requestSourceOf(request).https;
}

export function crossSiteRefused(): Response {
  return Response.json({ error: { code: 'FORBIDDEN', message: 'Cross-site request refused' } }, { status: 403 });
}
