'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { RouterOutputs } from '@staging/trpc/root';
import { useTRPC } from '@/client/trpc';
import { QueryError, QueryLoading } from '@/components/query-state';
import { formatMicrousd } from '@/lib/format';
import '@/components/review/review.css';

type SpendRow = RouterOutputs['ai']['spendSummary']['rows'][number];

const MONTH_CHOICES = [3, 6, 12, 24] as const;

function monthLabel(month: string): string {
  const [year, index] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year ?? 1970, (index ?? 1) - 1, 1)));
}

function Estimate({ row }: { row: Pick<SpendRow, 'estimateMicrousd' | 'attempts' | 'attemptsWithoutEstimate'> }) {
  return (
    <>
      ≈ {formatMicrousd(row.estimateMicrousd)}
      {row.attemptsWithoutEstimate > 0 && (
        <span className="small muted">
          {' '}
          (+{row.attemptsWithoutEstimate} without a price)
        </span>
      )}
    </>
  );
}

/** Estimated staging spend per month and property, with month totals. */
export function SpendSummary() {
  const trpc = useTRPC();
  const [months, setMonths] = useState<(typeof MONTH_CHOICES)[number]>(6);
  const spend = useQuery(trpc.ai.spendSummary.queryOptions({ months }, { placeholderData: (previous) => previous }));

  const byMonth = new Map<string, SpendRow[]>();
  for (const row of spend.data?.rows ?? []) byMonth.set(row.month, [...(byMonth.get(row.month) ?? []), row]);
  const total = (rows: SpendRow[]) => ({
    estimateMicrousd: rows.reduce((sum, row) => sum + row.estimateMicrousd, 0),
    attempts: rows.reduce((sum, row) => sum + row.attempts, 0),
    attemptsWithoutEstimate: rows.reduce((sum, row) => sum + row.attemptsWithoutEstimate, 0),
  });

  return (
    <section className="card section stack" aria-label="Estimated spend" data-testid="spend">
      <div className="field" style={{ maxWidth: 240 }}>
        <label htmlFor="spend-months">Period</label>
        <select id="spend-months" value={months} onChange={(event) => setMonths(Number(event.target.value) as (typeof MONTH_CHOICES)[number])}>
          {MONTH_CHOICES.map((value) => (
            <option key={value} value={value}>
              Last {value} months
            </option>
          ))}
        </select>
      </div>
      {spend.isPending && <QueryLoading>Loading the spend…</QueryLoading>}
      {spend.isError && <QueryError error={spend.error} onRetry={() => spend.refetch()} retrying={spend.isFetching} />}
      {spend.isSuccess && spend.data.rows.length === 0 && <p className="muted">No staging attempt was bought in this period.</p>}
      {byMonth.size > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="spend-table">
            <caption className="visually-hidden">Estimated staging spend per month and property</caption>
            <thead>
              <tr>
                <th scope="col">Month / property</th>
                <th scope="col" className="num">
                  Attempts bought
                </th>
                <th scope="col" className="num">
                  Estimate
                </th>
              </tr>
            </thead>
            {[...byMonth].map(([month, rows]) => {
              const sum = total(rows);
              return (
                <tbody key={month} data-testid="spend-month" data-month={month}>
                  <tr>
                    <th scope="rowgroup">{monthLabel(month)}</th>
                    <td className="num">{sum.attempts}</td>
                    <td className="num">
                      <strong>
                        <Estimate row={sum} />
                      </strong>
                    </td>
                  </tr>
                  {rows.map((row) => (
                    <tr key={row.propertyId} data-testid="spend-row">
                      <td style={{ paddingLeft: '1.5rem' }}>
                        <Link href={`/properties/${encodeURIComponent(row.propertyId)}`}>{row.propertyTitle}</Link>
                      </td>
                      <td className="num">{row.attempts}</td>
                      <td className="num">
                        <Estimate row={row} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              );
            })}
          </table>
        </div>
      )}
    </section>
  );
}
