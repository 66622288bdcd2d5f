/** Loads the next page of a list, while there is one (`more` undefined on the last page). */
export function MoreButton({ more, label, testId, busy = false }: { more: (() => void) | undefined; label: string; testId: string; busy?: boolean }) {
  if (more === undefined) return null;
  return (
    <button type="button" className="button button-small" data-testid={testId} disabled={busy} onClick={more}>
      {label}
    </button>
  );
}
