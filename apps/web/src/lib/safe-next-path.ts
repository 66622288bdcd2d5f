/**
 * Where to send a user after sign-in. Only same-site absolute paths are accepted: `//evil.test`
 * and `/\evil.test` are protocol-relative in browsers and would turn the sign-in page into an
 * open redirect.
 */
export function safeNextPath(value: string | null | undefined, fallback = '/properties'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters (CR/LF above all) have no place in a path and could split a header.
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return fallback;
  if (value.startsWith('/sign-in') || value.startsWith('/auth/')) return fallback;
  return value;
}
