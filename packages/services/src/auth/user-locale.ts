import type { Db } from '@staging/db/client';
import type { Locale } from '@staging/domain/locale';

/** Remembers the UI language `userId` picked, so the next sign-in (on any browser) restores it. */
export async function saveUserLocale(db: Db, userId: string, locale: Locale): Promise<void> {
  await db.user.updateMany({ where: { id: userId }, data: { locale } });
}
