'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { RouterOutputs } from '@staging/trpc/root';
import { useTRPC } from '@/client/trpc';
import { QueryError, QueryLoading } from '@/components/query-state';
import { spendEstimate } from '@/lib/format';
import '@/components/review/review.css';

type SpendRow = RouterOutputs['ai']['spendSummary']['rows'][number];
type SpendToday = RouterOutputs['ai']['spendSummary']['today'];

const MONTH_CHOICES = [3, 6, 12, 24] as const;

/** The first day of a "2026-03" month, which the formatter names in the UI language. */
function monthStart(month: string): Date {
  const [year, index] = month.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (index ?? 1) - 1, 1));
}

function Estimate({ row }: { row: Pick<SpendRow, 'estimateMicrousd' | 'attempts' | 'attemptsWithoutEstimate'> }) {
  const t = useTranslations('spend');
  const estimate = spendEstimate(row);
  if (!estimate.priced) return <span data-testid="spend-estimate">{t('notPriced')}</span>;
  return (
    <span data-testid="spend-estimate">
      {t('amount', { amount: estimate.usd })}
      {estimate.unpriced > 0 && <span className="small muted"> {t('withoutPrice', { count: estimate.unpriced })}</span>}
    </span>
  );
}

/** Today's paid attempts against the daily cap; the reached state is an alert, the rest a note. */
function DailyPurchases({ today }: { today: SpendToday }) {
  const t = useTranslations('spend');
  const resetsAt = new Date(today.resetsAt);
  if (today.cap === null) return <p data-testid="spend-today">{t('todayUncapped', { purchases: today.purchases })}</p>;
  if (today.purchases >= today.cap) {
    return (
      <p className="alert alert-info" role="status" data-testid="spend-today" data-cap-reached="true">
        {t('todayCapReached', { cap: today.cap, resetsAt })}
      </p>
    );
  }
  return <p data-testid="spend-today">{t('todayCapped', { purchases: today.purchases, cap: today.cap, resetsAt })}</p>;
}

/** Estimated staging spend per month and property, with month totals. */
export function SpendSummary() {
  const t = useTranslations('spend');
  const format = useFormatter();
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
    <section className="card section stack" aria-label={t('region')} data-testid="spend">
      <div className="field" style={{ maxWidth: 240 }}>
        <label htmlFor="spend-months">{t('period')}</label>
        <select id="spend-months" value={months} onChange={(event) => setMonths(Number(event.target.value) as (typeof MONTH_CHOICES)[number])}>
          {MONTH_CHOICES.map((value) => (
            <option key={value} value={value}>
              {t('lastMonths', { count: value })}
            </option>
          ))}
        </select>
      </div>
      {spend.isSuccess && <DailyPurchases today={spend.data.today} />}
      {spend.isPending && <QueryLoading>{t('loading')}</QueryLoading>}
      {spend.isError && <QueryError error={spend.error} onRetry={() => spend.refetch()} retrying={spend.isFetching} />}
      {spend.isSuccess && spend.data.rows.length === 0 && <p className="muted">{t('empty')}</p>}
      {byMonth.size > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="spend-table">
            <caption className="visually-hidden">{t('caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('monthProperty')}</th>
                <th scope="col" className="num">
                  {t('attempts')}
                </th>
                <th scope="col" className="num">
                  {t('estimate')}
                </th>
              </tr>
            </thead>
            {[...byMonth].map(([month, rows]) => {
              const sum = total(rows);
              return (
                <tbody key={month} data-testid="spend-month" data-month={month}>
                  <tr>
                    <th scope="rowgroup">{format.dateTime(monthStart(month), { month: 'long', year: 'numeric', timeZone: 'UTC' })}</th>
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
