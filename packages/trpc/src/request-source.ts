import { resolveRequestSource } from '@staging/domain/request-source';
import type { RequestSource } from '@staging/domain/request-source';

/**
 * The request source (packages/domain/src/request-source.ts) of a fetch `Request`'s headers, as
 * Next.js route handlers get them: they never see the socket. Next copies the peer's address into
 * X-Forwarded-For only when the client sent none, keeping a client's own value otherwise, and
 * `next start` serves plain HTTP; so with 0 trusted hops neither the client's address nor HTTPS
 * is known (docs/decisions/api.md "Trusted proxy hops").
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
