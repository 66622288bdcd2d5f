'use client';

import { useState, type ChangeEvent } from 'react';
import type { InventoryUnitRecord } from '@staging/contracts/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useIssueText } from '@/client/use-error-sentence';
import { parseInventoryCsv, type ParsedInventoryCsv } from '@/lib/inventory-csv';

interface LoadedCsv {
  fileName: string;
  text: string;
  parsed: ParsedInventoryCsv;
}

/**
 * The chosen CSV file, read and checked against the unit numbers its target unit already has,
 * or why it could not be read. `onChecked` runs after every check: a new check starts over.
 */
export function useCsvFile(units: InventoryUnitRecord[], onChecked: () => void) {
  const { t, locale } = useDashboardText('csv');
  const { issueText } = useIssueText();
  const [loaded, setLoaded] = useState<LoadedCsv | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  // A new key empties the file input, which cannot be cleared by value.
  const [inputKey, setInputKey] = useState(0);
  const [chosenName, setChosenName] = useState<string | undefined>();

  const existingNumbers = (targetUnitId: string) =>
    new Set(units.find((unit) => unit.propertyUnitId === targetUnitId)?.items.map((item) => item.unitNumber) ?? []);

  const check = (fileName: string, text: string, targetUnitId: string) => {
    const parsed = parseInventoryCsv(text, { t, issueText, locale, existingUnitNumbers: existingNumbers(targetUnitId) });
    onChecked();
    if (parsed.fileError !== undefined) {
      setLoaded(undefined);
      setFileError(parsed.fileError);
      return;
    }
    setFileError(undefined);
    setLoaded({ fileName, text, parsed });
  };

  return {
    loaded,
    fileError,
    inputKey,
    chosenName,
    check,
    choose: async (event: ChangeEvent<HTMLInputElement>, targetUnitId: string) => {
      const file = event.target.files?.[0];
      if (file === undefined) return;
      setChosenName(file.name);
      check(file.name, await file.text(), targetUnitId);
    },
    clear: () => {
      setLoaded(undefined);
      setFileError(undefined);
      setInputKey((key) => key + 1);
      setChosenName(undefined);
    },
  };
}
