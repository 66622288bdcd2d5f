'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
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
type SpendMonth = RouterOutputs['ai']['spendSummary']['months'][number];

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

function PropertyRow({ row }: { row: SpendRow }) {
  return (
    <tr data-testid="spend-row">
      <td style={{ paddingLeft: '1.5rem' }}>
        <Link href={`/properties/${encodeURIComponent(row.propertyId)}`}>{row.propertyTitle}</Link>
      </td>
      <td className="num">{row.attempts}</td>
      <td className="num">
        <Estimate row={row} />
      </td>
    </tr>
  );
}

/**
 * Every property of one month, a page at a time (ai.spendByProperty), once the agent asks for
 * more than the summary's top properties: an agency with thousands of properties gets a table it
 * can page through instead of one answer holding them all.
 */
function MonthProperties({ month, topRows }: { month: SpendMonth; topRows: SpendRow[] }) {
  const t = useTranslations('spend');
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<(string | undefined)[] | undefined>();
  const pages = useQueries({
    queries: (cursors ?? []).map((cursor) => trpc.ai.spendByProperty.queryOptions({ month: month.month, limit: 50, ...(cursor === undefined ? {} : { cursor }) })),
  });
  const last = pages[pages.length - 1];
  const rows = cursors === undefined ? topRows : pages.flatMap((page) => page.data?.items ?? []);
  const nextCursor = cursors === undefined ? undefined : (last?.data?.nextCursor ?? undefined);
  return (
    <>
      {rows.map((row) => (
        <PropertyRow key={row.propertyId} row={row} />
      ))}
      {last?.isError === true && (
        <tr>
          <td colSpan={3}>
            <QueryError error={last.error} onRetry={() => last.refetch()} retrying={last.isFetching} />
          </td>
        </tr>
      )}
      {(cursors === undefined ? month.hasMoreProperties : nextCursor !== undefined) && (
        <tr>
          <td colSpan={3} style={{ paddingLeft: '1.5rem' }}>
            <button
              type="button"
              className="button button-small"
              data-testid="spend-more"
              disabled={last?.isPending === true}
              onClick={() => setCursors(cursors === undefined ? [undefined] : [...cursors, nextCursor])}
            >
              {cursors === undefined ? t('allProperties') : t('moreProperties')}
            </button>
          </td>
        </tr>
      )}
    </>
  );
}

/** Estimated staging spend per month, with each month's total and its properties by spend. */
export function SpendSummary() {
  const t = useTranslations('spend');
  const format = useFormatter();
  const trpc = useTRPC();
  const [months, setMonths] = useState<(typeof MONTH_CHOICES)[number]>(6);
  const spend = useQuery(trpc.ai.spendSummary.queryOptions({ months }, { placeholderData: (previous) => previous }));

  const rowsByMonth = new Map<string, SpendRow[]>();
  for (const row of spend.data?.rows ?? []) rowsByMonth.set(row.month, [...(rowsByMonth.get(row.month) ?? []), row]);

  return (
    <section className="card section stack" aria-label={t('region')} data-testid="spend">
      <div className="field" style={{ maxWidth: 240 }}>
        <label htmlFor="spend-months">{t('period')}</label>
        <select
          id="spend-months"
          value={months}
          onChange={(event) => {
            // The select offers only the choices: the find narrows its value to one of them.
            const choice = MONTH_CHOICES.find((value) => value === Number(event.target.value));
            if (choice !== undefined) setMonths(choice);
          }}
        >
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
      {spend.isSuccess && spend.data.months.length === 0 && <p className="muted">{t('empty')}</p>}
      {spend.isSuccess && spend.data.months.length > 0 && (
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
            {spend.data.months.map((month) => (
              <tbody key={month.month} data-testid="spend-month" data-month={month.month}>
                <tr>
                  <th scope="rowgroup">{format.dateTime(monthStart(month.month), { month: 'long', year: 'numeric', timeZone: 'UTC' })}</th>
                  <td className="num">{month.attempts}</td>
                  <td className="num">
                    <strong>
                      <Estimate row={month} />
                    </strong>
                  </td>
                </tr>
                <MonthProperties key={`${month.month}-${months}`} month={month} topRows={rowsByMonth.get(month.month) ?? []} />
              </tbody>
            ))}
          </table>
        </div>
      )}
    </section>
  );
}
