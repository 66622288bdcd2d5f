'use client';

import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import type { RouterOutputs } from '@staging/trpc/root';
import { REVIEW_POLL_MS } from '@/client/review-data';
import { useTRPC } from '@/client/trpc';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { photoName, styleName } from '@/components/property/originals-section';
import { errorSentence } from '@/lib/api-errors';
import { CompareView } from './compare-view';

type AgentProperty = RouterOutputs['property']['get'];
type AgentImage = AgentProperty['images'][number];

interface PendingVariant {
  property: AgentProperty;
  variant: AgentImage;
  original: AgentImage | undefined;
  name: string;
}

function ReviewCard({ item, onReviewed }: { item: PendingVariant; onReviewed: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId: item.property.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
    ]);
  const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
  const approve = useMutation(
    trpc.ai.approveStagedVariant.mutationOptions({
      onSuccess: async () => {
        onReviewed(`Approved ${item.name} in ${style} style for ${item.property.title}; it now shows on the public page.`);
        await refresh();
      },
    }),
  );
  const reject = useMutation(
    trpc.ai.rejectStagedVariant.mutationOptions({
      onSuccess: async () => {
        setRejecting(false);
        onReviewed(`Rejected ${item.name} in ${style} style for ${item.property.title}; the same style can be staged again.`);
        await refresh();
      },
    }),
  );
  const busy = approve.isPending || reject.isPending;

  return (
    <li className="card stack" data-testid="review-item" data-image-id={item.variant.id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} style={{ fontSize: '1.1rem' }}>
        {item.property.title}: {item.name} · {style}
      </h2>
      {item.original === undefined ? (
        <img src={item.variant.url} alt={`${item.name} after staging (AI)`} />
      ) : (
        <CompareView
          beforeUrl={item.original.url}
          afterUrl={item.variant.url}
          aspectRatio={item.variant.height > 0 ? item.variant.width / item.variant.height : 1}
          name={item.name}
        />
      )}
      <div className="row">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => approve.mutate({ imageId: item.variant.id })}>
          Approve<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => {
            reject.reset();
            setRejecting(true);
          }}
        >
          Reject…<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <Link href={`/properties/${encodeURIComponent(item.property.id)}`} className="small">
          Open property
        </Link>
      </div>
      {approve.isError && (
        <p className="field-error" role="alert">
          {errorSentence(approve.error)}
        </p>
      )}
      <ConfirmDialog
        open={rejecting}
        title={`Reject ${item.name} (${style})?`}
        confirmLabel="Reject variant"
        danger
        busy={reject.isPending}
        error={reject.isError ? errorSentence(reject.error) : undefined}
        onConfirm={() => reject.mutate({ imageId: item.variant.id, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) })}
        onCancel={() => setRejecting(false)}
      >
        <p>The staged image is deleted. You can stage the photo in this style again afterwards.</p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason (optional)</label>
          <textarea id={`${id}-reason`} rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
      </ConfirmDialog>
    </li>
  );
}

/** Every PENDING_REVIEW variant of the agent's owned and assigned properties. */
export function ReviewQueue({ focusImageId }: { focusImageId: string | undefined }) {
  const trpc = useTRPC();
  const [message, setMessage] = useState<string | undefined>();
  const list = useQuery(trpc.property.list.queryOptions({ limit: 100 }, { refetchInterval: REVIEW_POLL_MS, staleTime: 5_000 }));
  const withPending = (list.data?.items ?? []).filter((property) => property.relation !== 'ADMIN' && property.review.pendingReview > 0);
  const details = useQueries({
    queries: withPending.map((property) => trpc.property.get.queryOptions({ propertyId: property.id })),
  });

  if (list.isPending) return <p role="status">Loading the review queue…</p>;
  if (list.isError) {
    return (
      <p className="alert alert-error" role="alert">
        {errorSentence(list.error)}
      </p>
    );
  }

  const pending: PendingVariant[] = details.flatMap((query) => {
    if (query.data === undefined) return [];
    const property = query.data;
    const originals = property.images.filter((image) => !image.isStyled);
    return property.images
      .filter((image) => image.isStyled && image.reviewStatus === 'PENDING_REVIEW')
      .map((variant) => ({
        property,
        variant,
        original: originals.find((image) => image.id === variant.styledFromId),
        name: photoName(originals, variant.styledFromId),
      }));
  });
  // A variant linked from the property page comes first.
  pending.sort((a, b) => Number(b.variant.id === focusImageId) - Number(a.variant.id === focusImageId));
  const loading = details.some((query) => query.isPending);

  return (
    <div className="stack">
      <p role="status" aria-live="polite" className={message === undefined ? 'muted' : 'alert alert-success'}>
        {message ?? (loading ? 'Loading…' : `${pending.length} variant${pending.length === 1 ? '' : 's'} waiting for review.`)}
      </p>
      {details
        .filter((query) => query.isError)
        .map((query, index) => (
          <p key={index} className="alert alert-error" role="alert">
            {errorSentence(query.error)}
          </p>
        ))}
      {!loading && pending.length === 0 && <p>Nothing to review. New staging results appear here automatically.</p>}
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {pending.map((item) => (
          <ReviewCard key={item.variant.id} item={item} onReviewed={setMessage} />
        ))}
      </ul>
    </div>
  );
}
