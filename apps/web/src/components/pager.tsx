'use client';

/**
 * Back and forward through keyset pages: `cursors` holds the cursor of each page shown so far
 * (the last is on screen), and `nextCursor` the one after it (null on the last page). Hidden while
 * everything fits on one page.
 */
export function Pager<Cursor>({
  label,
  cursors,
  nextCursor,
  onChange,
  previousLabel,
  nextLabel,
  pageLabel,
}: {
  label: string;
  cursors: readonly Cursor[];
  nextCursor: Cursor | null;
  onChange: (cursors: Cursor[]) => void;
  previousLabel: string;
  nextLabel: string;
  pageLabel: string;
}) {
  if (cursors.length === 1 && nextCursor === null) return null;
  return (
    <nav className="pager section" aria-label={label}>
      <button
        type="button"
        className="button button-small"
        disabled={cursors.length === 1}
        onClick={() => onChange(cursors.slice(0, -1))}
      >
        {previousLabel}
      </button>
      <span className="small">{pageLabel}</span>
      <button
        type="button"
        className="button button-small"
        disabled={nextCursor === null}
        onClick={() => nextCursor !== null && onChange([...cursors, nextCursor])}
      >
        {nextLabel}
      </button>
    </nav>
  );
}
