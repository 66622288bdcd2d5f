// Any origin serves: only the path, query and fragment of the parsed value are kept.
const BASE = 'http://next.invalid';

/**
 * Where to send a user after sign-in, as a same-site absolute path that can go into a Location
 * header as is. `//evil.test` and `/\evil.test` are protocol-relative in browsers and would turn
 * the sign-in page into an open redirect. The path is parsed the way a browser resolves it, so
 * characters outside ASCII (`/日`) come back percent-encoded, as a header can carry them, and
 * dot segments cannot make a protocol-relative path (`/a/..//evil.test`) of a harmless one.
 */
export function safeNextPath(value: string | null | undefined, fallback = '/properties'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters (CR/LF above all) have no place in a path and could split a header.
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== BASE || path.startsWith('//') || path.length > 2048) return fallback;
  // What is left must be printable ASCII, or the Location header cannot be written at all.
  if (!/^[\x21-\x7e]+$/.test(path)) return fallback;
  if (path.startsWith('/sign-in') || path.startsWith('/auth/')) return fallback;
  return path;
}
