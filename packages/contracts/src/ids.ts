import { z } from 'zod';

/**
 * Identifiers are database-generated UUIDs. Anything outside this alphabet cannot name a row, so
 * it is refused before a query: Postgres text cannot even hold U+0000, which would otherwise
 * surface as a driver error (a 500) instead of a clean 400/404.
 */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isWellFormedId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Zod schema of an entity identifier in request bodies and procedure inputs. */
export const ZEntityId = z.string().regex(ID_PATTERN, 'Must be an identifier of 1 to 64 letters, digits, - or _');
