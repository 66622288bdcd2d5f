import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';

/**
 * Writes the public_search_documents rows of `propertyIds` from what their public pages show, in
 * one statement (the database function of migration 0023, which the scale seed and the migration's
 * backfill call too). A property that is gone has no row left to write.
 */
export async function writePublicSearchDocuments(db: Db, propertyIds: readonly string[]): Promise<void> {
  await queryRows(db, Prisma.sql`SELECT public_search_documents_write(${propertyIds}::text[])`);
}
