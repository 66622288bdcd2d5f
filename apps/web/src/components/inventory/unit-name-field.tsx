'use client';

import { useId, type Ref } from 'react';
import { INVENTORY_LIMITS } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';

/**
 * What a failed createUnit/renameUnit says, split by where it shows: next to the name field (a
 * taken name in this form's own words) or under the form (anything else).
 */
export function useUnitNameErrors(error: unknown) {
  const { t, errorSentence, fieldError } = useDashboardText('inventory');
  if (error === null || error === undefined) return { field: undefined, form: undefined };
  const nameIssue = fieldError(error, 'name');
  if (nameIssue === undefined) return { field: undefined, form: errorSentence(error) };
  return { field: describeError(error).code === 'CONFLICT' ? t('unitNameTaken') : nameIssue, form: undefined };
}

interface UnitNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** The unit name input with its label and the server's message for it. */
export function UnitNameField({ value, onChange, error, inputRef }: UnitNameFieldProps) {
  const id = useId();
  const { t } = useDashboardText('inventory');
  return (
    <div className="field">
      <label htmlFor={`${id}-name`}>{t('unitName')}</label>
      <input
        ref={inputRef}
        id={`${id}-name`}
        type="text"
        required
        maxLength={INVENTORY_LIMITS.unitNameMaxLength}
        value={value}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : `${id}-name-error`}
        onChange={(event) => onChange(event.target.value)}
      />
      {error !== undefined && (
        <span className="field-error" id={`${id}-name-error`}>
          {error}
        </span>
      )}
    </div>
  );
}
