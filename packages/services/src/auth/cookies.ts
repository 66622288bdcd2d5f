/** Name of the session cookie on web and api alike, so one login serves both surfaces. */
export const SESSION_COOKIE_NAME = 'sid';

/**
 * Parses a Cookie request header into name → value. The first occurrence of a name wins (the
 * browser sends the most specific path first); values are percent-decoded when they are valid
 * percent-encoding and kept raw otherwise, so a malformed cookie cannot make a request fail.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null || header === undefined || header === '') return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies.set(name, decodeCookieValue(value));
  }
  return cookies;
}

function decodeCookieValue(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export interface SessionCookieOptions {
  expiresAt: Date;
  /** Secure outside development: the cookie then never travels over plain HTTP. */
  secure: boolean;
}

/**
 * HttpOnly keeps the token away from page scripts; SameSite=Lax keeps it off cross-site
 * subresource requests and POSTs (the Origin check in the tRPC/Express layers is the second
 * guard); Path=/ because web and api routes share the cookie.
 */
export function serializeSessionCookie(token: string, options: SessionCookieOptions): string {
  const parts = [
    `${SESSION_COOKIE_NAME}=${encodeURIComponent(token)}`,
    'Path=/',
    // Expires only (no Max-Age): Max-Age would need the wall clock here, while expiresAt comes
    // from the injected clock that also decides when the server stops accepting the session.
    `Expires=${options.expiresAt.toUTCString()}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** A Set-Cookie value that makes the browser drop the session cookie (logout). */
export function serializeClearedSessionCookie(options: { secure: boolean }): string {
  const parts = [
    `${SESSION_COOKIE_NAME}=`,
    'Path=/',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
