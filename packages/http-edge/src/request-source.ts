/**
 * Where a request came from, as far as the deployment lets us believe it (docs/decisions/api.md
 * "Trusted proxy hops"). TRUSTED_PROXY_HOPS says how many proxies stand in front of the service;
 * only those may speak through X-Forwarded-*. Every reader of the client address, the requested
 * host or the scheme (login limits, same-origin checks, cookie `Secure`, HSTS) goes through here.
 */

/** What the service itself saw of one request. */
export interface ForwardedRequest {
  /** The socket peer's address; undefined where the runtime hides it (Next.js route handlers). */
  peerAddress: string | undefined;
  /** The connection to this service is TLS. */
  encrypted: boolean;
  host: string | undefined;
  forwardedFor: string | undefined;
  forwardedHost: string | undefined;
  forwardedProto: string | undefined;
}

export interface RequestSource {
  /** The client's address; undefined when nothing trustworthy names it. */
  clientIp: string | undefined;
  /** The host the client asked for, lower-cased. */
  host: string | undefined;
  /** The client reached the outermost trusted hop (or this service) over HTTPS. */
  https: boolean;
}

function entriesOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * The entry the outermost trusted proxy wrote: each proxy appends what it saw, so it is the
 * `hops`-th from the right, and whatever stands left of it is the client's own say. A shorter
 * list gives its left-most entry, as Express's numeric `trust proxy` does.
 */
function trustedEntry(header: string | undefined, hops: number): string | undefined {
  const entries = entriesOf(header);
  return entries.length === 0 ? undefined : entries[Math.max(0, entries.length - hops)];
}

/**
 * With 0 hops the socket is the client and X-Forwarded-* are ignored entirely; with N hops the
 * N-th entry from the right of each X-Forwarded-* header is believed, the socket's own facts where
 * a header is absent.
 */
export function resolveRequestSource(request: ForwardedRequest, trustedHops: number): RequestSource {
  const host = request.host?.toLowerCase();
  if (trustedHops === 0) return { clientIp: request.peerAddress, host, https: request.encrypted };
  const proto = trustedEntry(request.forwardedProto, trustedHops)?.toLowerCase();
  return {
    clientIp: trustedEntry(request.forwardedFor, trustedHops) ?? request.peerAddress,
    host: trustedEntry(request.forwardedHost, trustedHops)?.toLowerCase() ?? host,
    https: proto === undefined ? request.encrypted : proto === 'https',
  };
}

/** One year, subdomains included: every host of the deployment is served over HTTPS only. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * HSTS only on answers that went out over HTTPS (browsers ignore it on plain HTTP anyway) and
 * only in production, so a development machine's localhost is never pinned to HTTPS.
 */
export function strictTransportSecurityFor(source: Pick<RequestSource, 'https'>, nodeEnv: string | undefined): string | undefined {
  return source.https && nodeEnv === 'production' ? STRICT_TRANSPORT_SECURITY : undefined;
}

/**
 * The request source of a fetch `Request`'s headers, as Next.js route handlers get them: they
 * never see the socket. Next copies the peer's address into X-Forwarded-For only when the client
 * sent none, keeping a client's own value otherwise, and `next start` serves plain HTTP; so with
 * 0 trusted hops neither the client's address nor HTTPS is known (docs/decisions/api.md "Trusted
 * proxy hops").
 */
export function requestSourceOfHeaders(headers: Headers, trustedHops: number): RequestSource {
  return resolveRequestSource(
    {
      peerAddress: undefined,
      encrypted: false,
      host: headers.get('host') ?? undefined,
      forwardedFor: headers.get('x-forwarded-for') ?? undefined,
      forwardedHost: headers.get('x-forwarded-host') ?? undefined,
      forwardedProto: headers.get('x-forwarded-proto') ?? undefined,
    },
    trustedHops,
  );
}
