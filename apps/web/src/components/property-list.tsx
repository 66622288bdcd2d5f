'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/client/trpc';
import { QueryError, QueryLoading } from '@/components/query-state';

const RELATION_LABELS = { OWNER: 'Owner', ASSIGNED: 'Assigned', ADMIN: 'Support access' } as const;

/** The agent's owned and assigned properties (every property for an admin). */
export function PropertyList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.property.list.queryOptions({ limit: 100 }));
  if (list.isPending) return <QueryLoading>Loading properties…</QueryLoading>;
  if (list.isError) return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;
  if (list.data.items.length === 0) return <p>You have no properties yet.</p>;
  return (
    <ul className="grid" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Properties">
      {list.data.items.map((property) => (
        <li key={property.id} className="card photo-card" data-testid="property-card">
          <div className="photo-frame">
            {property.coverImage !== null && <img src={property.coverImage.thumbnailUrl} alt="" loading="lazy" />}
          </div>
          <h2 style={{ fontSize: '1.1rem', margin: 0 }}>
            <Link href={`/properties/${encodeURIComponent(property.id)}`}>{property.title}</Link>
          </h2>
          <p className="muted small" style={{ margin: 0 }}>
            {property.address}, {property.city}
          </p>
          <div className="row small">
            <span className="status">{RELATION_LABELS[property.relation]}</span>
            <span>
              {property.review.originals} photo{property.review.originals === 1 ? '' : 's'}
            </span>
            {property.review.pendingReview > 0 && <span className="status status-wait">{property.review.pendingReview} to review</span>}
            {property.review.approved > 0 && <span className="status status-ok">{property.review.approved} staged</span>}
          </div>
          <div className="row">
            <Link className="button button-small" href={`/properties/${encodeURIComponent(property.id)}/inventory`}>
              Inventory<span className="visually-hidden"> of {property.title}</span>
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
