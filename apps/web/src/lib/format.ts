/** "4 s", "2 min 05 s", "1 h 03 min": short enough for a status row, exact enough to watch. */
export function formatElapsed(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
  return `${seconds} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A price adjustment with its sign, e.g. "+1,250.00" or "−300.00"; an em dash for none. */
export function formatPriceAdjustment(value: number | null): string {
  if (value === null) return '—';
  if (value === 0) return '0.00';
  return `${value > 0 ? '+' : '−'}${money.format(Math.abs(value))}`;
}

/** Micro-US-dollars as dollars with cents; estimates only. */
export function formatMicrousd(value: number): string {
  return `$${(value / 1_000_000).toFixed(2)}`;
}
