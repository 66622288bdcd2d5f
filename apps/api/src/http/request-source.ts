import type { IncomingMessage } from 'node:http';
import { resolveRequestSource } from '@staging/http-edge/request-source';
import type { RequestSource } from '@staging/http-edge/request-source';

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Who sent this request and how, per TRUSTED_PROXY_HOPS (packages/http-edge/src/request-source.ts).
 * Every api reader of the client's address, host or scheme asks here, not Express's `req.ip`,
 * `req.host` or `req.protocol`.
 */
export function requestSourceOf(req: IncomingMessage, trustedProxyHops: number): RequestSource {
  return resolveRequestSource(
    {
      peerAddress: req.socket.remoteAddress,
      encrypted: 'encrypted' in req.socket && req.socket.encrypted === true,
      host: req.headers.host,
      forwardedFor: joined(req.headers['x-forwarded-for']),
      forwardedHost: joined(req.headers['x-forwarded-host']),
      forwardedProto: joined(req.headers['x-forwarded-proto']),
    },
    trustedProxyHops,
  );
}
