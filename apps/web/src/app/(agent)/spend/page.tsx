import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SpendSummary } from '@/components/spend/spend-summary';
import { requireUser } from '@/server/session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('spend'))('title') };
}

export default async function SpendPage() {
  const user = await requireUser();
  const t = await getTranslations('spend');
  return (
    <>
      <div className="page-header">
        <h1>{t('title')}</h1>
      </div>
      <p className="muted">{user.role === 'ADMIN' ? t('introAdmin') : t('introAgent')}</p>
      <SpendSummary />
    </>
  );
}
