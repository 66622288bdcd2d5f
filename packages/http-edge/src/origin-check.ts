import { requestSourceOfHeaders } from './request-source';
import { isCrossSiteRequest } from './same-origin';

/**
 * The shared same-origin rule (same-origin.ts) for a tRPC mutation, which is always a POST, or a
 * live stream, judged as one; the host is the one the trusted proxies name.
 */
export function isCrossSiteCall(headers: Headers, allowedOrigins: readonly string[], trustedProxyHops: number): boolean {
  return isCrossSiteRequest({
    method: 'POST',
    origin: headers.get('origin') ?? undefined,
    secFetchSite: headers.get('sec-fetch-site') ?? undefined,
    host: requestSourceOfHeaders(headers, trustedProxyHops).host,
    allowedOrigins,
  });
}
