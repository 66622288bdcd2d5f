/**
 * Whether a `next` link of the provider's prediction list names the list on the configured API, however
 * the provider spelled its origin. The client never sends a request to the link's host: it keeps
 * only the query (cursor and filters) and asks the configured base URL, so the token stays there.
 * This check decides whether the query is one the configured API wrote for this list.
 *
 * Same origin, compared after WHATWG URL parsing (which lower-cases the host, drops a default port
 * and writes IPv4 in dotted decimal): the same scheme, the same effective port, and the same host
 * with a trailing root dot ignored. Names are never resolved (DNS may answer anything); the one
 * spelling that is not textual is loopback: when the configured host is a loopback name or address
 * (a local stack or the simulator), any loopback spelling of the link is the same host, since
 * both can only mean this machine. The path must be the base path's `/predictions`, and a link
 * carrying credentials is refused.
 */

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function hostOf(url: URL): string {
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
}

function effectivePort(url: URL): string {
  return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port;
}

function trimTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, '');
}

/** True when `link` and `base` name the same origin (see the module comment). */
export function isSameApiOrigin(link: URL, base: URL): boolean {
  if (link.protocol !== base.protocol || effectivePort(link) !== effectivePort(base)) return false;
  const linkHost = hostOf(link);
  const baseHost = hostOf(base);
  return linkHost === baseHost || (isLoopbackHost(baseHost) && isLoopbackHost(linkHost));
}

export type ListLink = { kind: 'on-api'; query: string } | { kind: 'refused'; origin: string };

/**
 * Reads a `next` link of the list of `apiBaseUrl` (e.g. https://api.replicate.com/v1): its query
 * when it names that list, else the origin it named (for the alert; never the cursor).
 */
export function readListLink(link: string, apiBaseUrl: string): ListLink {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { kind: 'refused', origin: 'not a URL' };
  }
  const base = new URL(`${trimTrailingSlashes(apiBaseUrl)}/predictions`);
  const onApi =
    url.username === '' &&
    url.password === '' &&
    isSameApiOrigin(url, base) &&
    trimTrailingSlashes(url.pathname) === base.pathname;
  return onApi ? { kind: 'on-api', query: url.search } : { kind: 'refused', origin: url.origin };
}
