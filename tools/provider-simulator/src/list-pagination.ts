/**
 * Cursor pagination of GET /predictions the way Replicate documents it: newest first, a fixed
 * page size (100), and `next`/`previous` as full URLs (or null). Cursors are opaque to callers;
 * here they name a creation sequence number and a direction, so a purchase made between two page
 * requests neither shifts nor repeats older entries.
 */

export interface Sequenced {
  seq: number;
}

export interface ListPage<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}

type Cursor = { direction: 'older' | 'newer'; seq: number };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.direction === 'older' ? 'b' : 'a'}${cursor.seq}`).toString('base64url');
}

/** Null for anything this simulator did not issue. */
export function decodeCursor(raw: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(raw)) return null;
  const match = /^([ab])(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) return null;
  return { direction: match[1] === 'b' ? 'older' : 'newer', seq: Number(match[2]) };
}

export function listPage<T extends Sequenced>(
  items: Iterable<T>,
  options: { cursor: Cursor | null; pageSize: number; urlFor: (cursor: string) => string },
): ListPage<T> {
  const all = [...items];
  const link = (cursor: Cursor) => options.urlFor(encodeCursor(cursor));
  const { cursor, pageSize } = options;
  let results: T[];
  if (cursor?.direction === 'newer') {
    // The page just above the cursor: the oldest `pageSize` newer entries, shown newest first.
    results = all.filter((p) => p.seq > cursor.seq).sort((a, b) => a.seq - b.seq).slice(0, pageSize).reverse();
  } else {
    const below = cursor ? cursor.seq : Number.POSITIVE_INFINITY;
    results = all.filter((p) => p.seq < below).sort((a, b) => b.seq - a.seq).slice(0, pageSize);
  }
  // Bounds of what this page covers, also when it is empty.
  const newestShown = results[0]?.seq ?? (cursor?.direction === 'newer' ? Number.POSITIVE_INFINITY : (cursor?.seq ?? Number.POSITIVE_INFINITY) - 1);
  const oldestShown = results[results.length - 1]?.seq ?? (cursor?.direction === 'newer' ? cursor.seq + 1 : newestShown + 1);
  const hasOlder = all.some((p) => p.seq < oldestShown);
  // The first page (no cursor) has no previous page, as on Replicate.
  const hasNewer = cursor !== null && all.some((p) => p.seq > newestShown);
  return {
    results,
    next: hasOlder ? link({ direction: 'older', seq: oldestShown }) : null,
    previous: hasNewer ? link({ direction: 'newer', seq: newestShown }) : null,
  };
}
