import type { Metadata } from 'next';
import { SpendSummary } from '@/components/spend/spend-summary';
import { requireUser } from '@/server/session';

export const metadata: Metadata = { title: 'Staging spend (estimates)' };

export default async function SpendPage() {
  const user = await requireUser();
  return (
    <>
      <div className="page-header">
        <h1>Staging spend (estimates)</h1>
      </div>
      <p className="muted">
        Estimated from the configured prices per attempt, by calendar month (UTC) and property
        {user.role === 'ADMIN' ? ', across every property' : ', for the properties you own or are assigned to'}. These are not invoices: the
        provider’s bill is what counts.
      </p>
      <SpendSummary />
    </>
  );
}
