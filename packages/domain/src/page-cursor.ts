import { AppError, ErrorCode, IssueCode } from './errors';

/**
 * Keyset page cursors: the sort key and id of the last row of a page, as opaque base64url text.
 * The next page starts strictly after that pair, so rows inserted or deleted elsewhere never make
 * a page repeat or skip a row that stays, and every page is one index range scan however deep it
 * is (an OFFSET would read and drop every row before it).
 */
export interface PageCursor {
  key: string;
  id: string;
}

export function encodePageCursor(cursor: PageCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.key, cursor.id]));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor a previous page gave; BAD_REQUEST on `cursor` for any other text. */
export function decodePageCursor(text: string): PageCursor {
  let parsed: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw new AppError(ErrorCode.BAD_REQUEST, 'Invalid page cursor', {
      issues: [{ path: ['cursor'], message: 'Not a cursor this procedure gave', code: IssueCode.INVALID }],
    });
  }
  return { key: parsed[0], id: parsed[1] };
}
