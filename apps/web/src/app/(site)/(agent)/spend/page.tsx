import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SpendSummary } from '@/components/spend/spend-summary';
import { requireUser } from '@/server/session';
import { PageTitle } from '@/components/page-title';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('spend'))('title') };
}

export default async function SpendPage() {
  const user = await requireUser();
  const t = await getTranslations('spend');
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <p className="muted">{user.role === 'ADMIN' ? t('introAdmin') : t('introAgent')}</p>
      <SpendSummary />
    </>
  );
}
