import type { Metadata } from 'next';
import { JobsPanel } from '@/components/property/jobs-panel';
import { getRequestLocale } from '@/server/request-locale';

export const metadata: Metadata = { title: 'Staging history' };

/** Every staging job of the agent's properties (every property for an admin), newest first. */
export default async function JobsPage() {
  return (
    <>
      <div className="page-header">
        <h1>Staging history</h1>
      </div>
      <JobsPanel initialLocale={await getRequestLocale()} />
    </>
  );
}
