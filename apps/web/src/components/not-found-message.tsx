import Link from 'next/link';
import { useTranslations } from 'next-intl';

/** What a missing page or listing says, on the dashboard's and on the public pages' 404. */
export function NotFoundMessage() {
  const t = useTranslations('errors');
  return (
    <>
      <h1>{t('notFoundTitle')}</h1>
      <p>{t('notFoundBody')}</p>
      <p>
        <Link href="/search">{t('notFoundLink')}</Link>
      </p>
    </>
  );
}
