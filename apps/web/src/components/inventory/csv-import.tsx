'use client';

import { useId, useState } from 'react';
import type { InventoryUnitRecord } from '@staging/contracts/inventory';
import { downloadText } from '@/client/download-text';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { errorRowsCsv, statusChoices, type CsvRowError } from '@/lib/inventory-csv';
import { CsvImportPreview } from './csv-import-preview';
import { CsvImportProgress } from './csv-import-progress';
import { CsvSourceControls } from './csv-source-controls';
import { useCsvFile } from './use-csv-file';
import { useCsvImportRun } from './use-csv-import-run';

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
  const id = useId();
  const { t, locale } = useDashboardText('csv');
  const [chosenUnitId, setUnitId] = useState(units[0]?.propertyUnitId ?? '');
  // The chosen unit can be removed (or the page may start with none): the first one stands in.
  const unitId = units.some((unit) => unit.propertyUnitId === chosenUnitId) ? chosenUnitId : (units[0]?.propertyUnitId ?? '');
  const importRun = useCsvImportRun(propertyId, unitId);
  const { phase } = importRun;
  const file = useCsvFile(units, importRun.preview);
  const { loaded } = file;

  const chooseUnit = (next: string) => {
    setUnitId(next);
    // Which unit numbers are taken depends on the unit: check the file again against it.
    if (loaded !== undefined && phase.kind === 'preview') file.check(loaded.fileName, loaded.text, next);
  };

  const reset = () => {
    file.clear();
    importRun.preview();
  };

  const parsed = loaded?.parsed;
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
      <CsvSourceControls
        id={id}
        units={units}
        unitId={unitId}
        importing={phase.kind === 'importing'}
        fileInputKey={file.inputKey}
        fileName={file.chosenName}
        onUnit={chooseUnit}
        onFile={(event) => void file.choose(event, unitId)}
      />

      <AlertMessage message={file.fileError} tone="page" />

      {loaded !== undefined && phase.kind === 'preview' && (
        <CsvImportPreview
          fileName={loaded.fileName}
          parsed={loaded.parsed}
          unitName={unitName}
          onImport={() => void importRun.run(loaded.parsed)}
          onDownloadErrors={downloadErrors}
          onReset={reset}
        />
      )}

      {parsed !== undefined && phase.kind !== 'preview' && (
        <CsvImportProgress
          id={id}
          phase={phase}
          rowCount={parsed.rows.length}
          total={parsed.rows.length + parsed.errors.length}
          statusRef={importRun.statusRef}
          onDownloadErrors={downloadErrors}
          onReset={reset}
        />
      )}
    </section>
  );
}
