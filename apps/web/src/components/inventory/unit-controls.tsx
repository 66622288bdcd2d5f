'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { DeleteUnitResult, InventoryUnitRecord } from '@staging/contracts/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useInventoryCache } from './inventory-cache';
import { UnitNameField, useUnitNameErrors } from './unit-name-field';
import { useUnitRemove } from './use-unit-remove';
import { useUnitRename, type UnitRename } from './use-unit-rename';

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
  const { t } = useDashboardText('inventory');
  const rename = useUnitRename(unit, propertyId);
  const remove = useUnitRemove(unit, propertyId, onRemoved);

  return (
    <>
      {rename.draft === null ? (
        <div className="row">
          <button type="button" className="button button-small" ref={rename.buttonRef} onClick={rename.start}>
            {t('renameUnit')}
            <span className="visually-hidden"> {unit.name}</span>
          </button>
          <button type="button" className="button button-small" onClick={remove.ask}>
            {t('removeUnit')}
            <span className="visually-hidden"> {unit.name}</span>
          </button>
        </div>
      ) : (
        <UnitRenameForm unit={unit} draft={rename.draft} rename={rename} />
      )}
      <ConfirmDialog
        open={remove.confirming !== null}
        title={t('removeUnitTitle', { unit: unit.name })}
        confirmLabel={t('removeUnitConfirm', { count: remove.confirming ?? 0 })}
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={remove.confirm}
        onCancel={remove.cancel}
      >
        <p>{t('removeUnitBody', { count: remove.confirming ?? 0 })}</p>
      </ConfirmDialog>
    </>
  );
}

/** The unit's name as a form while it is renamed: the field, Save and Cancel. */
function UnitRenameForm({ unit, draft, rename }: { unit: InventoryUnitRecord; draft: string; rename: UnitRename }) {
  const { t, tc } = useDashboardText('inventory');
  return (
    <form className="toolbar" noValidate onSubmit={rename.save} aria-label={t('renameUnitOf', { unit: unit.name })}>
      <UnitNameField value={draft} onChange={rename.setDraft} error={rename.errors.field} inputRef={rename.inputRef} />
      <button type="submit" className="button button-small button-primary" disabled={rename.isPending}>
        {t('save')}
        <span className="visually-hidden"> {unit.name}</span>
      </button>
      <button type="button" className="button button-small" onClick={rename.cancel} disabled={rename.isPending}>
        {tc('cancel')}
        <span className="visually-hidden"> {t('cancelRenaming', { unit: unit.name })}</span>
      </button>
      <AlertMessage message={rename.errors.form} />
    </form>
  );
}
