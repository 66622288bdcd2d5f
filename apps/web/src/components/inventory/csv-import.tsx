'use client';

import { useId, useRef, useState, type FormEvent } from 'react';
import type { InventoryItemRecord, InventoryUnitRecord } from '@staging/domain/inventory';
import { useTRPCClient } from '@/client/trpc';
import { describeError, errorSentence } from '@/lib/api-errors';
import { chunk, parseInventoryCsv, type CsvRow, type CsvRowError } from '@/lib/inventory-csv';
import { useInventoryCache } from './inventory-cache';

/** bulkCreate takes at most 500 items per call (SPEC.md 4.4). */
const CHUNK_SIZE = 500;
/** How often one chunk is retried after a rate-limit answer before the import stops. */
const MAX_RATE_LIMIT_RETRIES = 2;

interface ImportState {
  total: number;
  done: number;
  imported: number;
  running: boolean;
  waitingSeconds?: number;
  fileError?: string;
  errors: CsvRowError[];
  finished: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rows failing in a chunk: the server names them by `items.<index>.<field>`; an error without
 * such paths (e.g. the unit vanished) fails every row of the chunk, which was written as a whole
 * or not at all.
 */
function chunkErrors(rows: CsvRow[], error: unknown): CsvRowError[] {
  const described = describeError(error);
  const perRow = new Map<number, string[]>();
  for (const issue of described.issues) {
    const [head, index, field] = issue.path;
    if (head === 'items' && typeof index === 'number' && rows[index] !== undefined) {
      const line = rows[index].line;
      perRow.set(line, [...(perRow.get(line) ?? []), `${field === undefined ? '' : `${String(field)}: `}${issue.message}`]);
    }
  }
  const note = 'not imported: its chunk of 500 rows was rejected as a whole';
  if (perRow.size === 0) return rows.map((row) => ({ line: row.line, message: `${errorSentence(error)} (${note})` }));
  return rows.map((row) => ({
    line: row.line,
    message: perRow.has(row.line) ? (perRow.get(row.line) ?? []).join('; ') : `Valid, but ${note} because of other rows.`,
  }));
}

/** CSV import through inventory.bulkCreate in chunks of 500, with progress and a per-row report. */
export function CsvImport({ propertyId, units }: { propertyId: string; units: InventoryUnitRecord[] }) {
  const client = useTRPCClient();
  const cache = useInventoryCache(propertyId);
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [unitId, setUnitId] = useState(units[0]?.propertyUnitId ?? '');
  const [state, setState] = useState<ImportState | undefined>();

  const run = async (event: FormEvent) => {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (file === undefined) {
      setState({ total: 0, done: 0, imported: 0, running: false, fileError: 'Choose a CSV file first.', errors: [], finished: true });
      return;
    }
    const parsed = parseInventoryCsv(await file.text());
    if (parsed.fileError !== undefined) {
      setState({ total: 0, done: 0, imported: 0, running: false, fileError: parsed.fileError, errors: [], finished: true });
      return;
    }
    const total = parsed.rows.length + parsed.errors.length;
    let current: ImportState = { total, done: parsed.errors.length, imported: 0, running: true, errors: [...parsed.errors], finished: false };
    setState(current);
    const created: InventoryItemRecord[] = [];
    for (const rows of chunk(parsed.rows, CHUNK_SIZE)) {
      let attempt = 0;
      for (;;) {
        try {
          const result = await client.inventory.bulkCreate.mutate({ propertyId, propertyUnitId: unitId, items: rows.map((row) => row.item) });
          created.push(...result.items);
          current = { ...current, done: current.done + rows.length, imported: current.imported + result.items.length, waitingSeconds: undefined };
          break;
        } catch (error) {
          const described = describeError(error);
          if (described.code === 'TOO_MANY_REQUESTS' && attempt < MAX_RATE_LIMIT_RETRIES) {
            attempt += 1;
            const wait = Math.min(described.retryAfterSeconds ?? 5, 60);
            setState({ ...current, waitingSeconds: wait });
            await sleep(wait * 1000);
            continue;
          }
          current = { ...current, done: current.done + rows.length, errors: [...current.errors, ...chunkErrors(rows, error)], waitingSeconds: undefined };
          break;
        }
      }
      setState(current);
    }
    cache.upsert(created);
    setState({ ...current, running: false, finished: true, errors: [...current.errors].sort((a, b) => a.line - b.line) });
  };

  return (
    <section className="card section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import from CSV</h2>
      <p className="muted small">
        First line: a header with <code>unitNumber</code> and optionally <code>floor</code>, <code>status</code> and <code>priceAdjustment</code>.
        Rows are sent in chunks of 500; a chunk is saved completely or not at all.
      </p>
      <form className="row" onSubmit={run} style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor={`${id}-unit`}>Import into</label>
          <select id={`${id}-unit`} value={unitId} onChange={(event) => setUnitId(event.target.value)}>
            {units.map((unit) => (
              <option key={unit.propertyUnitId} value={unit.propertyUnitId}>
                {unit.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-file`}>CSV file</label>
          <input id={`${id}-file`} ref={fileRef} type="file" accept=".csv,text/csv" />
        </div>
        <button type="submit" className="button button-primary" disabled={state?.running === true || unitId === ''}>
          Import
        </button>
      </form>
      {state !== undefined && (
        <div className="stack" style={{ marginTop: '0.75rem' }}>
          {state.fileError !== undefined && (
            <p className="alert alert-error" role="alert">
              {state.fileError}
            </p>
          )}
          {state.total > 0 && (
            <>
              <label htmlFor={`${id}-progress`}>Import progress</label>
              <progress id={`${id}-progress`} max={state.total} value={state.done} data-testid="import-progress" />
              <p aria-live="polite" data-testid="import-status">
                {state.running ? `Processed ${state.done} of ${state.total} rows…` : `Imported ${state.imported} of ${state.total} rows.`}
                {state.waitingSeconds !== undefined && ` Rate limit reached: waiting ${state.waitingSeconds} s before retrying.`}
              </p>
            </>
          )}
          {state.finished && state.errors.length > 0 && (
            <div className="alert alert-warning" role="alert" data-testid="import-errors">
              <p style={{ marginTop: 0 }}>
                <strong>
                  {state.errors.length} row{state.errors.length === 1 ? ' was' : 's were'} not imported:
                </strong>
              </p>
              <ul className="error-list">
                {state.errors.map((error) => (
                  <li key={error.line}>
                    Line {error.line}: {error.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
