import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { JobsPanel } from '@/components/property/jobs-panel';
import { PageTitle } from '@/components/page-title';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('jobs'))('pageTitle') };
}

/** Every staging job of the agent's properties (every property for an admin), newest first. */
export default async function JobsPage() {
  const t = await getTranslations('jobs');
  return (
    <>
      <PageTitle>{t('pageTitle')}</PageTitle>
      <JobsPanel />
    </>
  );
}
