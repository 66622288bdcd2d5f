/** Between a number and its unit: a narrow row may wrap between "2 min" and "05 s", never inside one. */
const NBSP = '\u00a0';

/** "4 s", "2 min 05 s", "1 h 03 min": short enough for a status row, exact enough to watch. */
export function formatElapsed(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours}${NBSP}h ${two(minutes)}${NBSP}min`;
  if (minutes > 0) return `${minutes}${NBSP}min ${two(seconds)}${NBSP}s`;
  return `${seconds}${NBSP}s`;
}

/**
 * A file size in the UI language's digits and unit names (CLDR's, through Intl): "16.0 MB" (en),
 * "16,0 MB" (es). Binary multiples, as file managers show them. Rounded up, as the upload limit
 * message rounds it: a file just over 15 MB never reads "15.0 MB", and the size beside a refused
 * file is the size its refusal names.
 */
export function formatBytes(bytes: number, locale: string): string {
  const [unit, value, digits] =
    bytes < 1024 ? (['byte', bytes, 0] as const) : bytes < 1024 * 1024 ? (['kilobyte', bytes / 1024, 0] as const) : (['megabyte', bytes / (1024 * 1024), 1] as const);
  return new Intl.NumberFormat(locale, { style: 'unit', unit, minimumFractionDigits: digits, maximumFractionDigits: digits, roundingMode: 'ceil' }).format(value);
}

/**
 * A price adjustment with its sign in the UI language's digits, e.g. "+1,250.00" (en) or
 * "+1250,00" (es) and "−300.00"; an em dash for none.
 */
export function formatPriceAdjustment(value: number | null, locale: string): string {
  if (value === null) return '—';
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (value === 0) return money.format(0);
  return `${value > 0 ? '+' : '−'}${money.format(Math.abs(value))}`;
}

/** Micro-US-dollars (how costs are stored) as dollars, for the catalogue's currency format. */
export function microusdToUsd(value: number): number {
  return value / 1_000_000;
}

/** A spend figure as the page says it: an amount, and how many attempts it leaves out. */
export type SpendEstimate = { priced: true; usd: number; unpriced: number } | { priced: false };

/**
 * An amount only when at least one attempt had a price: attempts recorded without one add
 * nothing to the sum, so a total made only of them would read $0.00, as if staging were free.
 */
export function spendEstimate(row: { estimateMicrousd: number; attempts: number; attemptsWithoutEstimate: number }): SpendEstimate {
  if (row.attemptsWithoutEstimate >= row.attempts && row.attempts > 0) return { priced: false };
  return { priced: true, usd: microusdToUsd(row.estimateMicrousd), unpriced: row.attemptsWithoutEstimate };
}
