/**
 * Removes credentials from anything about to leave the process as a log line or an error report.
 * docs/system.md 6: logs never contain provider tokens, signing secrets, signed URLs, cookies or raw
 * image bytes. Callers still pass URLs through `redactUrl`; this is the net under that rule.
 */

export const REDACTED = '[redacted]';

/** Keys whose values are credentials whatever their shape. */
const SECRET_KEY = /token|secret|password|passwd|authorization|cookie|signature|api[-_]?key|signedurl|credential|dsn/i;
/** Keys whose string values are URLs that may carry a signature in their query. */
const URL_KEY = /(^|[^a-z])(url|uri|href|location)$/i;

/** Deeper structures are replaced, never passed through unscrubbed. */
const MAX_DEPTH = 12;

/**
 * Strips userinfo, query string and fragment: a pre-signed S3 URL or a provider file URL carries
 * its credential in the query, and `user:password@` is a credential by definition. Unparseable
 * input (a relative path such as `/api/x?sig=…`) still loses everything after `?` or `#`.
 */
export function redactUrl(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return url.replace(/[?#].*$/s, '');
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/**
 * Each rule with the text (`needle`, a case-insensitive pattern) that every match of it contains,
 * so text holding none of the needles, which is nearly every log value (ids, statuses, counts),
 * is returned after one scan instead of one per rule.
 */
export const TEXT_RULES: readonly { needle: string; pattern: RegExp; replacement: string }[] = [
  // scheme://user:pass@host → scheme://[redacted]@host (database and queue-store URLs).
  { needle: '://', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, replacement: `$1${REDACTED}@` },
  // Query and fragment of absolute URLs (signed URLs).
  { needle: '://', pattern: /\b(https?:\/\/[^\s?#"'<>]+)[?#][^\s"'<>]*/gi, replacement: '$1' },
  { needle: 'Bearer|Basic|Token', pattern: /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/g, replacement: `$1 ${REDACTED}` },
  { needle: 'whsec_', pattern: /\bwhsec_[A-Za-z0-9+/=]+/g, replacement: `whsec_${REDACTED}` },
  // Replicate API tokens.
  { needle: 'r8_', pattern: /\br8_[A-Za-z0-9]+/g, replacement: REDACTED },
  { needle: 'data:', pattern: /\bdata:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, replacement: '[data uri]' },
];

const ANY_NEEDLE = new RegExp(TEXT_RULES.map((rule) => rule.needle).join('|'), 'i');

/** Scrubs credentials that appear inside free text such as an error message or stack. */
export function scrubText(text: string): string {
  if (!ANY_NEEDLE.test(text)) return text;
  let out = text;
  for (const { pattern, replacement } of TEXT_RULES) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isBytes(value: unknown): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

/**
 * Returns a scrubbed copy: secret-named keys become `[redacted]`, byte buffers become a size
 * marker, URL-named strings lose their query, every other string goes through `scrubText`.
 * Only plain objects and arrays are walked; class instances (sockets, requests) are left to
 * their serializers so a log call never traverses a live object graph.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (isBytes(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    return depth >= MAX_DEPTH ? '[too deep]' : value.map((item) => scrubValue(item, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_KEY.test(key) && inner !== null && inner !== undefined && typeof inner !== 'boolean' && typeof inner !== 'number') {
      out[key] = REDACTED;
    } else if (URL_KEY.test(key) && typeof inner === 'string') {
      out[key] = redactUrl(scrubText(inner));
    } else {
      out[key] = scrubValue(inner, depth + 1);
    }
  }
  return out;
}

/**
 * {@link scrubValue} of a log object, a logger's bindings or an error report, typed as it came in:
 * the copy has the same keys, only values that were credentials or bytes are now marker strings,
 * which pino and Sentry serialize like any other string. TypeScript cannot follow a walk over keys,
 * so this is the one place the walk's result is given a type.
 */
export function scrubObject<T extends object>(value: T): T {
  return scrubValue(value) as T;
}
