'use client';

import { useState } from 'react';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { useTRPCClient } from '@/client/trpc';
import { useFocusTarget } from '@/client/use-focus-target';
import { useErrorSentence, useIssueText } from '@/client/use-error-sentence';
import { describeError } from '@/lib/api-errors';
import { BULK_CREATE_CHUNK, chunk, type CsvRow, type CsvRowError, type ParsedInventoryCsv } from '@/lib/inventory-csv';
import { problemsOf, rowIssues } from './csv-row-issues';
import { useInventoryCache } from './inventory-cache';

/** How often one chunk is retried after a rate-limit answer before its rows count as failed. */
const MAX_RATE_LIMIT_RETRIES = 2;

export type ImportPhase =
  | { kind: 'preview' }
  | { kind: 'importing'; processed: number; imported: number; waitingSeconds?: number }
  | { kind: 'finished'; imported: number; refused: CsvRowError[] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sending a checked file's valid rows into one unit, in chunks, with the progress as a phase:
 * the preview before, the rows sent while importing, what was written and refused after.
 */
export function useCsvImportRun(propertyId: string, unitId: string) {
  const client = useTRPCClient();
  const cache = useInventoryCache(propertyId);
  const errorSentence = useErrorSentence();
  const { issueText } = useIssueText();
  const [phase, setPhase] = useState<ImportPhase>({ kind: 'preview' });
  // The Import button leaves with the preview; the import's status line takes focus instead.
  const statusFocus = useFocusTarget<HTMLParagraphElement>();

  /** Sends one chunk, setting aside rows the server names until the rest is written. */
  const sendChunk = async (rows: CsvRow[], onWait: (seconds: number | undefined) => void) => {
    const created: InventoryItemRecord[] = [];
    const refused: CsvRowError[] = [];
    let pending = rows;
    let rateLimited = 0;
    while (pending.length > 0) {
      try {
        const result = await client.inventory.bulkCreate.mutate({ propertyId, propertyUnitId: unitId, items: pending.map((row) => row.item) });
        created.push(...result.items);
        pending = [];
      } catch (error) {
        const described = describeError(error);
        if (described.code === 'TOO_MANY_REQUESTS' && rateLimited < MAX_RATE_LIMIT_RETRIES) {
          rateLimited += 1;
          const wait = Math.min(described.retryAfterSeconds ?? 5, 60);
          onWait(wait);
          await sleep(wait * 1000);
          onWait(undefined);
          continue;
        }
        const named = rowIssues(pending, error, issueText);
        if (named.size === 0) {
          // Nothing points at particular rows (the unit vanished, the service failed): none of
          // this chunk was written.
          refused.push(...problemsOf(pending, errorSentence(error)));
          pending = [];
        } else {
          for (const [row, message] of named) refused.push({ line: row.line, fields: row.fields, message });
          pending = pending.filter((row) => !named.has(row));
        }
      }
    }
    return { created, refused };
  };

  const run = async (parsed: ParsedInventoryCsv) => {
    const created: InventoryItemRecord[] = [];
    const refused: CsvRowError[] = [];
    let processed = 0;
    setPhase({ kind: 'importing', processed, imported: 0 });
    statusFocus.moveFocus();
    for (const rows of chunk(parsed.rows, BULK_CREATE_CHUNK)) {
      const result = await sendChunk(rows, (waitingSeconds) =>
        setPhase({ kind: 'importing', processed, imported: created.length, ...(waitingSeconds === undefined ? {} : { waitingSeconds }) }),
      );
      created.push(...result.created);
      refused.push(...result.refused);
      processed += rows.length;
      setPhase({ kind: 'importing', processed, imported: created.length });
    }
    cache.upsert(created);
    setPhase({ kind: 'finished', imported: created.length, refused: [...parsed.errors, ...refused].sort((a, b) => a.line - b.line) });
  };

  return {
    phase,
    /** Back to the preview: a new file or unit is being checked. */
    preview: () => setPhase({ kind: 'preview' }),
    run,
    statusRef: statusFocus.ref,
  };
}
