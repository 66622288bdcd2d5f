import { z } from 'zod';
import type { EnvRule } from './env-reader';

/** Decimal integer within [min, max]; no signs, exponents or fractions, so '1e3' is not 1000. */
export function integerRule(min: number, max = Number.MAX_SAFE_INTEGER): EnvRule<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
  const message = `must be an integer ${range}`;
  return z
    .string()
    .regex(/^\d{1,15}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }));
}

export function oneOfRule<const T extends readonly [string, ...string[]]>(values: T): EnvRule<T[number]> {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

export function booleanRule(): EnvRule<boolean> {
  return z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .transform((value) => value === 'true');
}

export function secretRule(minLength: number): EnvRule<string> {
  return z
    .string()
    .min(minLength, { error: `must be at least ${minLength} characters` })
    .regex(/^\S+$/, { error: 'must not contain whitespace' });
}

export function textRule(maxLength = 200): EnvRule<string> {
  return z
    .string()
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .regex(/^\S(.*\S)?$/, { error: 'must not start or end with whitespace' });
}

/** Parses as a URL whose scheme is one of `schemes`. Credentials inside are allowed (DSNs). */
export function urlRule(schemes: readonly string[], what: string): EnvRule<string> {
  return z.string().refine(
    (value) => {
      const url = URL.parse(value);
      return url !== null && schemes.includes(url.protocol.replace(/:$/, ''));
    },
    { error: `must be a ${what} URL (${schemes.map((s) => `${s}://`).join(' or ')})` },
  );
}

/**
 * ISO 8601 instant in UTC written with a trailing Z, e.g. 2027-01-31T23:59:59.999Z. An offset or a
 * date without time is refused: the sunset is a legal cut-off and must not depend on a zone.
 */
export function utcInstantRule(): EnvRule<Date> {
  const message = 'must be an ISO 8601 UTC instant ending in Z, e.g. 2027-01-31T23:59:59.999Z';
  return z
    .string()
    .refine(isUtcInstant, { error: message })
    .transform((value) => new Date(value));
}

const UTC_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?Z$/;

function isUtcInstant(value: string): boolean {
  const fields = UTC_INSTANT.exec(value)?.slice(1, 7).map(Number);
  if (fields === undefined) return false;
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 02-30 over to 03-02 and 24:00 to the next day; a mismatch means the fields
  // named no real instant.
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/**
 * Standard Webhooks secret as Replicate issues it: `whsec_` + base64 of the key. The key must
 * decode to at least 24 bytes, the Standard Webhooks minimum, so a truncated paste is caught at
 * boot instead of as 401s on every callback.
 */
export function webhookSigningSecretRule(): EnvRule<string> {
  return z
    .string()
    .startsWith('whsec_', { error: 'must start with whsec_', abort: true })
    .refine(
      (value) => {
        const key = value.slice('whsec_'.length);
        return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(key) &&
          Buffer.from(key, 'base64').length >= 24;
      },
      { error: 'must be whsec_ followed by standard base64 of at least 24 bytes' },
    );
}

export function hexKeyRule(hexChars: number): EnvRule<string> {
  return z
    .string()
    .regex(new RegExp(`^[0-9a-fA-F]{${hexChars}}$`), { error: `must be exactly ${hexChars} hexadecimal characters` });
}

/**
 * Valid S3 bucket name (general purpose buckets): 3-63 characters of lowercase letters, digits,
 * dots and hyphens, starting and ending with a letter or digit, no '..', not shaped like an IP
 * address, and none of the prefixes/suffixes AWS reserves.
 */
export function s3BucketRule(): EnvRule<string> {
  return z.string().refine(isValidBucketName, {
    error:
      'must be a valid S3 bucket name: 3-63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit',
  });
}

function isValidBucketName(name: string): boolean {
  return (
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) &&
    !name.includes('..') &&
    !/^\d+\.\d+\.\d+\.\d+$/.test(name) &&
    !/^(xn--|sthree-|amzn-s3-demo-)/.test(name) &&
    !/(-s3alias|--ol-s3|--x-s3|\.mrap)$/.test(name)
  );
}

/**
 * Queue-name suffix. BullMQ joins prefix and queue name with ':' in Redis keys, so the suffix is
 * limited to characters that cannot break that key layout.
 */
export function queueSuffixRule(): EnvRule<string> {
  return z
    .string()
    .regex(/^[A-Za-z0-9_.-]{0,64}$/, { error: 'must be at most 64 letters, digits, dots, hyphens or underscores' });
}

/** Replicate model reference: owner/name, optionally pinned as owner/name:<64-hex version>. */
export function modelRule(): EnvRule<string> {
  return z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*(:[0-9a-f]{64})?$/, {
    error: 'must be a model reference owner/name or owner/name:<64-hex version>',
  });
}
