'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type Ref } from 'react';
import type { DeleteUnitResult, InventoryUnitRecord } from '@staging/contracts/inventory';
import { INVENTORY_LIMITS } from '@staging/domain/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';
import { AlertMessage } from '@/components/alert-message';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useInventoryCache } from './inventory-cache';

/**
 * What a failed createUnit/renameUnit says, split by where it shows: next to the name field (a
 * taken name in this form's own words) or under the form (anything else).
 */
function useUnitNameErrors(error: unknown) {
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
function UnitNameField({ value, onChange, error, inputRef }: UnitNameFieldProps) {
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

/** "Add a unit" (inventory.createUnit): under the units, and the first step of a property without any. */
export function AddUnitForm({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const headingId = useId();
  const { t } = useDashboardText('inventory');
  const [name, setName] = useState('');
  const [added, setAdded] = useState<string | undefined>();
  // The confirmation takes focus, so a keyboard user hears what was added; the new unit's section
  // (with its own "Add item" form) sits just above.
  const addedFocus = useFocusTarget<HTMLParagraphElement>();
  const create = useMutation(
    trpc.inventory.createUnit.mutationOptions({
      onSuccess: (unit) => {
        cache.addUnit(unit);
        setName('');
        setAdded(unit.name);
        addedFocus.moveFocus();
      },
    }),
  );
  const errors = useUnitNameErrors(create.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(undefined);
    create.mutate({ propertyId, name });
  };

  return (
    <form className="toolbar" noValidate onSubmit={submit} aria-labelledby={headingId} data-testid="add-unit">
      <h2 id={headingId} style={{ flexBasis: '100%', margin: 0 }}>
        {t('addUnit')}
      </h2>
      <UnitNameField value={name} onChange={setName} error={errors.field} />
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {t('addUnitButton')}
      </button>
      <AlertMessage message={errors.form} />
      <p role="status" ref={addedFocus.ref} tabIndex={-1} className="small" style={{ flexBasis: '100%', margin: 0 }}>
        {added === undefined ? '' : t('unitAdded', { unit: added })}
      </p>
    </form>
  );
}

interface UnitActionsProps {
  unit: InventoryUnitRecord;
  propertyId: string;
  /** After the unit is gone, with what went: the page says so (this component goes with the unit). */
  onRemoved: (result: DeleteUnitResult) => void;
}

/**
 * Rename (inline, inventory.renameUnit) and remove (inventory.deleteUnit, after a confirmation
 * that says how many items go) for one unit, under its heading.
 */
export function UnitActions({ unit, propertyId, onRemoved }: UnitActionsProps) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t, tc, errorSentence } = useDashboardText('inventory');
  const [draft, setDraft] = useState<string | null>(null);
  // The item count the confirmation showed and the delete sends; null while no dialog is open.
  const [confirming, setConfirming] = useState<number | null>(null);
  // Rename swaps its button for the form: focus moves into the name field, and back afterwards.
  const renameButton = useFocusTarget<HTMLButtonElement>();
  const renameInput = useFocusTarget<HTMLInputElement>();
  const rename = useMutation(
    trpc.inventory.renameUnit.mutationOptions({
      onSuccess: (renamed) => {
        cache.renameUnit(renamed);
        setDraft(null);
        renameButton.moveFocus();
      },
    }),
  );
  const remove = useMutation(
    trpc.inventory.deleteUnit.mutationOptions({
      onSuccess: (result) => {
        cache.removeUnit(result.propertyUnitId);
        onRemoved(result);
      },
      onError: (error) => {
        // Items were added or removed since the page loaded: the dialog now states the real count,
        // the next confirm sends it, and the table reloads to show those items.
        const { code, itemCount } = describeError(error);
        if (code === 'CONFLICT' && itemCount !== undefined) {
          setConfirming(itemCount);
          void cache.refetch();
        }
      },
    }),
  );
  const renameErrors = useUnitNameErrors(rename.error);
  const removeError = (() => {
    if (!remove.isError) return undefined;
    const { code, itemCount } = describeError(remove.error);
    return code === 'CONFLICT' && itemCount !== undefined ? t('removeUnitChanged', { count: itemCount }) : errorSentence(remove.error);
  })();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (draft !== null) rename.mutate({ propertyUnitId: unit.propertyUnitId, name: draft });
  };
  const cancelRename = () => {
    setDraft(null);
    renameButton.moveFocus();
  };

  return (
    <>
      {draft === null ? (
        <div className="row">
          <button
            type="button"
            className="button button-small"
            ref={renameButton.ref}
            onClick={() => {
              rename.reset();
              setDraft(unit.name);
              renameInput.moveFocus();
            }}
          >
            {t('renameUnit')}
            <span className="visually-hidden"> {unit.name}</span>
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              remove.reset();
              setConfirming(unit.items.length);
            }}
          >
            {t('removeUnit')}
            <span className="visually-hidden"> {unit.name}</span>
          </button>
        </div>
      ) : (
        <form className="toolbar" noValidate onSubmit={save} aria-label={t('renameUnitOf', { unit: unit.name })}>
          <UnitNameField value={draft} onChange={setDraft} error={renameErrors.field} inputRef={renameInput.ref} />
          <button type="submit" className="button button-small button-primary" disabled={rename.isPending}>
            {t('save')}
            <span className="visually-hidden"> {unit.name}</span>
          </button>
          <button type="button" className="button button-small" onClick={cancelRename} disabled={rename.isPending}>
            {tc('cancel')}
            <span className="visually-hidden"> {t('cancelRenaming', { unit: unit.name })}</span>
          </button>
          <AlertMessage message={renameErrors.form} />
        </form>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={t('removeUnitTitle', { unit: unit.name })}
        confirmLabel={t('removeUnitConfirm', { count: confirming ?? 0 })}
        danger
        busy={remove.isPending}
        error={removeError}
        onConfirm={() => confirming !== null && remove.mutate({ propertyUnitId: unit.propertyUnitId, expectedItemCount: confirming })}
        onCancel={() => setConfirming(null)}
      >
        <p>{t('removeUnitBody', { count: confirming ?? 0 })}</p>
      </ConfirmDialog>
    </>
  );
}
