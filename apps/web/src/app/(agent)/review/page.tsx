import type { Metadata } from 'next';
import { ReviewQueue } from '@/components/review/review-queue';

export const metadata: Metadata = { title: 'Review' };

export default async function ReviewPage({ searchParams }: PageProps<'/review'>) {
  const image = (await searchParams).image;
  return (
    <>
      <div className="page-header">
        <h1>Review staged photos</h1>
      </div>
      <p className="muted">Approve a variant to publish it with the label “AI · Virtually staged”, or reject it with an optional reason.</p>
      <ReviewQueue focusImageId={typeof image === 'string' ? image : undefined} />
    </>
  );
}
