import { BlockList, isIP } from 'node:net';

// The hops the api trusts too (apps/api create-app TRUST_PROXY: loopback, linklocal, uniquelocal):
// proxies of our own deployment, never a client.
const TRUSTED_PROXIES = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const)
  TRUSTED_PROXIES.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  TRUSTED_PROXIES.addSubnet(network, prefix, 'ipv6');

function isTrustedProxy(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const family = isIP(plain);
  return family !== 0 && TRUSTED_PROXIES.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client address behind our proxies, from X-Forwarded-For as Express's `trust proxy` reads it:
 * the right-most hop that is not one of our own proxies (proxies append, so anything left of it
 * may be forged by the client). Next.js puts the peer's address there when no proxy did. When
 * every hop is ours the request came from inside and the left-most hop is the client.
 */
export function clientIpFromForwardedFor(header: string | null): string {
  const hops = (header ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i -= 1) if (!isTrustedProxy(hops[i]!)) return hops[i]!;
  return hops[0] ?? 'unknown';
}

/**
 * The client address of a request reaching a Next.js or fetch handler (the web's sign-in, its
 * forwarding to the api, the tRPC context): the one place that transport reads it.
 */
export function clientAddressFromHeaders(headers: Headers): string {
  return clientIpFromForwardedFor(headers.get('x-forwarded-for'));
}
