import { isIP } from 'node:net';

/**
 * Checks PROVIDER_WEBHOOK_BASE_URL. The provider calls `<origin>/api/webhooks/provider/staging/<id>`
 * from the public internet and the route never redirects (docs/system.md 4.1), so the value must be
 * exactly a public https origin: anything else makes every callback fail or leak to a host that
 * is not ours. With `allowInsecure` (the development override) http and internal hosts are
 * accepted, but the value must still be an origin so the built URL is the same shape.
 *
 * @returns the broken rules, empty when the value is acceptable.
 */
export function webhookBaseUrlProblems(value: string, options: { allowInsecure: boolean }): string[] {
  const problems: string[] = [];
  const url = URL.parse(value);
  const parts = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(value);
  if (url === null || parts === null) return ['must be an absolute URL such as https://api.example.com'];

  const schemes = options.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    problems.push(options.allowInsecure ? 'must use https or http' : 'must use https');
  }
  if (url.username !== '' || url.password !== '') problems.push('must not contain credentials');

  const rest = parts[3] ?? '';
  if (rest === '/') problems.push('must not end with a trailing slash');
  else if (rest.startsWith('/')) problems.push('must be an origin without a path');
  if (rest.includes('?')) problems.push('must not contain a query string');
  if (rest.includes('#')) problems.push('must not contain a fragment');

  if (!options.allowInsecure && isInternalHost(url.hostname)) {
    problems.push('must not point at an internal host (localhost, loopback, private, link-local or single-label names)');
  }
  return problems;
}

/**
 * True for names and addresses the provider cannot (or must not) reach. `hostname` is the WHATWG
 * URL hostname: lowercased, IPv4 already normalized to dotted decimal (so 0x7f.1 is 127.0.0.1),
 * IPv6 in brackets.
 */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  if (host.startsWith('[') && host.endsWith(']')) return isInternalIpv6(host.slice(1, -1));
  if (isIP(host) === 4) return isInternalIpv4(host);
  if (!host.includes('.')) return true;
  return /(^|\.)(localhost|internal|local|localdomain|home\.arpa)$/.test(host);
}

function isInternalIpv4(address: string): boolean {
  // Dotted decimal (see isInternalHost), so both octets are there.
  const [first, second] = address.split('.');
  const a = Number(first);
  const b = Number(second);
  return (
    a === 0 || // "this network", including 0.0.0.0
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT, never publicly routed
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224 // multicast, reserved and broadcast
  );
}

function isInternalIpv6(address: string): boolean {
  const groups = expandIpv6(address);
  if (groups === null) return true;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const firstSixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstSixZero && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  if (firstSixZero && g5 === 0xffff) {
    // IPv4-mapped: the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
    return isInternalIpv4(`${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`);
  }
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

function expandIpv6(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : (halves[0] ?? '').split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? (halves[1] ?? '').split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) => Number.parseInt(g, 16));
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}
