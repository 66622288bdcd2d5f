import { AppError } from '@staging/domain/errors';

/** Where a newest-first page ends: the (createdAt, id) of its last row. */
export interface CreatedAtKey {
  createdAt: Date;
  id: string;
}

/** The opaque cursor of a page of rows ordered by ("createdAt", "id"). */
export function encodeCreatedAtCursor(row: CreatedAtKey): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');
}

/** @throws AppError BAD_REQUEST (field `cursor`) for a cursor this module did not make. */
export function decodeCreatedAtCursor(cursor: string): CreatedAtKey {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (id === undefined || id.length === 0 || Number.isNaN(createdAt.getTime())) {
    const message = 'Invalid cursor.';
    throw new AppError('BAD_REQUEST', message, { issues: [{ path: ['cursor'], message }] });
  }
  return { createdAt, id };
}
