// Any origin serves: only the path, query and fragment of the parsed value are kept.
const BASE = 'http://next.invalid';

/** Longest target kept; a longer one is no page of ours and only bloats the header. */
const MAX_LENGTH = 2048;

/** Printable ASCII: all a Location header can carry. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function decodesAsUtf8(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where to send a user after sign-in, as a same-site absolute path that can go into a Location
 * header as is; `fallback` (the dashboard unless told otherwise) for anything else.
 *
 * - `//evil.test` and `/\evil.test` are protocol-relative in browsers and would turn the sign-in
 *   page into an open redirect; dot segments cannot make one of a harmless path
 *   (`/a/..//evil.test`), because the path is resolved the way a browser resolves it.
 * - Characters outside ASCII (`/日`) come back percent-encoded, as a header can carry them, so the
 *   answer that sets the session cookie can always be written.
 * - Control characters (CR/LF above all) could split a header, and a path whose percent-encoding
 *   is not UTF-8 (`/%FF`) names no page the router can read: both fall back.
 * - The sign-in page and the `/auth/` routes are no place to land after signing in.
 */
export function safeNextPath(value: string | null | undefined, fallback = '/properties'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== BASE || path.startsWith('//') || path.length > MAX_LENGTH) return fallback;
  if (!HEADER_SAFE.test(path) || !decodesAsUtf8(url.pathname)) return fallback;
  if (path.startsWith('/sign-in') || path.startsWith('/auth/')) return fallback;
  return path;
}
