'use client';

import { useTranslations } from 'next-intl';
import { useId, useState, type ChangeEvent } from 'react';
import type { InventoryItemRecord, InventoryUnitRecord } from '@staging/contracts/inventory';
import type { FieldIssue } from '@staging/domain/errors';
import { inventoryStatusLabel } from '@staging/domain/inventory';
import { downloadText } from '@/client/download-text';
import { useTRPCClient } from '@/client/trpc';
import { useFocusTarget } from '@/client/use-focus-target';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useIssueText } from '@/client/use-error-sentence';
import { describeError } from '@/lib/api-errors';
import { formatPriceAdjustment } from '@/lib/format';
import { AlertMessage } from '@/components/alert-message';
import {
  BULK_CREATE_CHUNK,
  chunk,
  errorRowsCsv,
  inventoryCsvTemplate,
  parseInventoryCsv,
  statusChoices,
  type CsvRow,
  type CsvRowError,
  type ParsedInventoryCsv,
} from '@/lib/inventory-csv';
import { useInventoryCache } from './inventory-cache';
import styles from './csv-import.module.css';

/** How often one chunk is retried after a rate-limit answer before its rows count as failed. */
const MAX_RATE_LIMIT_RETRIES = 2;
/** Rows shown in the preview table; the counts above it cover the whole file. */
const PREVIEW_ROWS = 20;

type Phase =
  | { kind: 'preview' }
  | { kind: 'importing'; processed: number; imported: number; waitingSeconds?: number }
  | { kind: 'finished'; imported: number; refused: CsvRowError[] };

interface Loaded {
  fileName: string;
  text: string;
  parsed: ParsedInventoryCsv;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Messages per row of a refused call, from issue paths `items.<index>.<column>`. */
function rowIssues(rows: readonly CsvRow[], error: unknown, issueText: (issue: FieldIssue) => string): Map<CsvRow, string> {
  const found = new Map<CsvRow, string>();
  for (const issue of describeError(error).issues) {
    const [head, index, column] = issue.path;
    const row = head === 'items' && typeof index === 'number' ? rows[index] : undefined;
    if (row === undefined) continue;
    const message = `${column === undefined ? '' : `${String(column)}: `}${issueText(issue)}`;
    found.set(row, found.has(row) ? `${found.get(row)}; ${message}` : message);
  }
  return found;
}

function problemsOf(rows: readonly CsvRow[], message: string): CsvRowError[] {
  return rows.map((row) => ({ line: row.line, fields: row.fields, message }));
}

function baseName(fileName: string): string {
  return fileName.replace(/\.csv$/i, '');
}

/**
 * CSV import in two steps: the file is read and checked in the browser (with the server's zod
 * rules and the unit numbers already taken) and previewed with every bad row named; only then
 * are the valid rows sent, in chunks of 500. bulkCreate writes a chunk completely or not at all,
 * so when the server still refuses some rows (someone added the same unit number meanwhile)
 * those rows are set aside and the rest of the chunk is sent again: a bad row never costs the
 * good ones. Progress counts the rows sent, and the summary says what was written.
 */
export function CsvImport({ propertyId, units }: { propertyId: string; units: InventoryUnitRecord[] }) {
  const client = useTRPCClient();
  const cache = useInventoryCache(propertyId);
  const id = useId();
  const { t, locale, errorSentence } = useDashboardText('csv');
  const { issueText } = useIssueText();
  const ti = useTranslations('inventory');
  const [chosenUnitId, setUnitId] = useState(units[0]?.propertyUnitId ?? '');
  // The chosen unit can be removed (or the page may start with none): the first one stands in.
  const unitId = units.some((unit) => unit.propertyUnitId === chosenUnitId) ? chosenUnitId : (units[0]?.propertyUnitId ?? '');
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const [phase, setPhase] = useState<Phase>({ kind: 'preview' });
  const [fileInputKey, setFileInputKey] = useState(0);
  const [chosenFileName, setChosenFileName] = useState<string | undefined>();
  // The Import button leaves with the preview; the import's status line takes focus instead.
  const statusFocus = useFocusTarget<HTMLParagraphElement>();

  const existingNumbers = (targetUnitId: string) =>
    new Set(units.find((unit) => unit.propertyUnitId === targetUnitId)?.items.map((item) => item.unitNumber) ?? []);

  const load = (fileName: string, text: string, targetUnitId: string) => {
    const parsed = parseInventoryCsv(text, { t, issueText, locale, existingUnitNumbers: existingNumbers(targetUnitId) });
    setPhase({ kind: 'preview' });
    if (parsed.fileError !== undefined) {
      setLoaded(undefined);
      setFileError(parsed.fileError);
      return;
    }
    setFileError(undefined);
    setLoaded({ fileName, text, parsed });
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    setChosenFileName(file.name);
    load(file.name, await file.text(), unitId);
  };

  const chooseUnit = (next: string) => {
    setUnitId(next);
    // Which unit numbers are taken depends on the unit: check the file again against it.
    if (loaded !== undefined && phase.kind === 'preview') load(loaded.fileName, loaded.text, next);
  };

  const reset = () => {
    setLoaded(undefined);
    setFileError(undefined);
    setPhase({ kind: 'preview' });
    setFileInputKey((key) => key + 1);
    setChosenFileName(undefined);
  };

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

  const runImport = async () => {
    if (loaded === undefined) return;
    const created: InventoryItemRecord[] = [];
    const refused: CsvRowError[] = [];
    let processed = 0;
    setPhase({ kind: 'importing', processed, imported: 0 });
    statusFocus.moveFocus();
    for (const rows of chunk(loaded.parsed.rows, BULK_CREATE_CHUNK)) {
      const result = await sendChunk(rows, (waitingSeconds) =>
        setPhase({ kind: 'importing', processed, imported: created.length, ...(waitingSeconds === undefined ? {} : { waitingSeconds }) }),
      );
      created.push(...result.created);
      refused.push(...result.refused);
      processed += rows.length;
      setPhase({ kind: 'importing', processed, imported: created.length });
    }
    cache.upsert(created);
    setPhase({ kind: 'finished', imported: created.length, refused: [...loaded.parsed.errors, ...refused].sort((a, b) => a.line - b.line) });
  };

  const parsed = loaded?.parsed;
  const total = parsed === undefined ? 0 : parsed.rows.length + parsed.errors.length;
  const unitName = units.find((unit) => unit.propertyUnitId === unitId)?.name ?? t('theUnit');
  const downloadErrors = (errors: readonly CsvRowError[]) => {
    if (loaded === undefined) return;
    downloadText(`${baseName(loaded.fileName)}-not-imported.csv`, errorRowsCsv(loaded.parsed.header, errors), 'text/csv');
  };

  return (
    <section className="card section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('title')}</h2>
      <p className="muted small">
        {t.rich('intro', { statuses: statusChoices(locale), code: (chunks) => <code>{chunks}</code> })}
      </p>
      <div className={styles.controls}>
        <div className="field">
          <label htmlFor={`${id}-unit`}>{t('importInto')}</label>
          <select id={`${id}-unit`} value={unitId} disabled={phase.kind === 'importing'} onChange={(event) => chooseUnit(event.target.value)}>
            {units.map((unit) => (
              <option key={unit.propertyUnitId} value={unit.propertyUnitId}>
                {unit.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-file`}>{t('file')}</label>
          {/* The browser's own file button speaks the browser's language; this one the page's. */}
          <div className={styles.fileChooser}>
            <input
              key={fileInputKey}
              id={`${id}-file`}
              className="visually-hidden"
              type="file"
              accept=".csv,text/csv"
              disabled={phase.kind === 'importing' || unitId === ''}
              onChange={(event) => void chooseFile(event)}
            />
            <label htmlFor={`${id}-file`} className="button">
              {t('chooseFile')}
            </label>
            <span className="small muted" data-testid="csv-file-name">
              {chosenFileName ?? t('noFile')}
            </span>
          </div>
        </div>
        <button type="button" className="button" onClick={() => downloadText('inventory-template.csv', inventoryCsvTemplate(locale), 'text/csv')}>
          {t('template')}
        </button>
      </div>

      <AlertMessage message={fileError} tone="page" />

      {loaded !== undefined && parsed !== undefined && phase.kind === 'preview' && (
        <div className="stack" data-testid="import-preview">
          <p role="status" data-testid="preview-summary">
            {t.rich('previewSummary', {
              file: loaded.fileName,
              total,
              ready: parsed.rows.length,
              unit: unitName,
              errors: parsed.errors.length,
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
          {parsed.unusedColumns.length > 0 && (
            <p data-testid="unused-columns">
              {t('unusedColumns', {
                count: parsed.unusedColumns.length,
                columns: new Intl.ListFormat(locale, { type: 'conjunction' }).format(parsed.unusedColumns),
                unit: unitName,
              })}
            </p>
          )}
          {parsed.errors.length > 0 && (
            <ErrorTable errors={parsed.errors} caption={t('previewErrors')} testId="preview-errors" />
          )}
          {parsed.rows.length > 0 && (
            <div className={styles.scroll} tabIndex={0} role="region" aria-label={t('rowsToImport')}>
              <table className={styles.table}>
                <caption className={styles.caption}>
                  {t('rowsToImport')}
                  {parsed.rows.length > PREVIEW_ROWS && ` ${t('firstRows', { shown: PREVIEW_ROWS, total: parsed.rows.length })}`}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t('line')}</th>
                    <th scope="col">{ti('unitNumber')}</th>
                    <th scope="col">{ti('floor')}</th>
                    <th scope="col">{ti('status')}</th>
                    <th scope="col">{ti('priceAdjustment')}</th>
                    <th scope="col" className={styles.notesColumn}>
                      {ti('notes')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {parsed.rows.slice(0, PREVIEW_ROWS).map((row) => (
                    <tr key={row.line} data-testid="preview-row">
                      <td className="num">{row.line}</td>
                      <td className={styles.unitNumber}>
                        {row.item.unitNumber}
                        {row.item.notes !== undefined && row.item.notes !== null && <span className={styles.inlineNotes}>{row.item.notes}</span>}
                      </td>
                      <td className="num">{row.item.floor ?? '—'}</td>
                      <td>{inventoryStatusLabel(row.item.status ?? 'AVAILABLE', locale)}</td>
                      <td className="num">{formatPriceAdjustment(row.item.priceAdjustment ?? null, locale)}</td>
                      <td className={`${styles.notes} ${styles.notesColumn}`}>{row.item.notes ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className={styles.actions}>
            <button type="button" className="button button-primary" disabled={parsed.rows.length === 0} onClick={() => void runImport()}>
              {t('importValid', { count: parsed.rows.length })}
            </button>
            {parsed.errors.length > 0 && (
              <button type="button" className="button" onClick={() => downloadErrors(parsed.errors)}>
                {t('downloadErrors')}
              </button>
            )}
            <button type="button" className="button" onClick={reset}>
              {t('chooseAnother')}
            </button>
          </div>
        </div>
      )}

      {parsed !== undefined && phase.kind !== 'preview' && (
        <div className="stack">
          <label htmlFor={`${id}-progress`}>{t('progress')}</label>
          <progress
            id={`${id}-progress`}
            max={Math.max(parsed.rows.length, 1)}
            value={phase.kind === 'importing' ? phase.processed : parsed.rows.length}
            data-testid="import-progress"
          />
          <p aria-live="polite" data-testid="import-status" ref={statusFocus.ref} tabIndex={-1}>
            {phase.kind === 'importing'
              ? t('sending', { processed: phase.processed, total: parsed.rows.length, imported: phase.imported })
              : t('imported', { imported: phase.imported, total })}
            {phase.kind === 'importing' && phase.waitingSeconds !== undefined && ` ${t('rateLimited', { seconds: phase.waitingSeconds })}`}
          </p>
          {phase.kind === 'finished' && phase.refused.length > 0 && (
            <div className="alert alert-warning stack" role="alert" data-testid="import-errors">
              <p style={{ margin: 0 }}>
                <strong>
                  {t('notImported', { count: phase.refused.length })}
                </strong>{' '}
                {t('fixAndRetry')}
              </p>
              <ErrorTable errors={phase.refused} caption={t('notImportedCaption')} testId="import-error-rows" />
              <div className={styles.actions}>
                <button type="button" className="button" onClick={() => downloadErrors(phase.refused)}>
                  {t('downloadNotImported')}
                </button>
              </div>
            </div>
          )}
          {phase.kind === 'finished' && (
            <div className={styles.actions}>
              <button type="button" className="button" onClick={reset}>
                {t('importAnother')}
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

function ErrorTable({ errors, caption, testId }: { errors: readonly CsvRowError[]; caption: string; testId: string }) {
  const t = useTranslations('csv');
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label={caption} data-testid={testId}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('line')}</th>
            <th scope="col">{t('problem')}</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((error) => (
            <tr key={error.line}>
              <td className="num">{error.line}</td>
              <td>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
