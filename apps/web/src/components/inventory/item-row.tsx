'use client';

import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { ItemCells, ItemSelectCell } from './item-cells';
import { ItemEditCells } from './item-edit-cells';
import { useItemEdit, type ItemEdit } from './use-item-edit';

interface ItemRowProps {
  item: InventoryItemRecord;
  propertyId: string;
  selected: boolean;
  onToggle: (itemId: string, selected: boolean) => void;
  onDelete: (item: InventoryItemRecord) => void;
}

/** One item: read-only cells, or inputs while it is edited inline (Save sends inventory.update). */
export function ItemRow({ item, propertyId, selected, onToggle, onDelete }: ItemRowProps) {
  const edit = useItemEdit(item, propertyId);
  return (
    <tr data-testid="inventory-row" data-unit-number={item.unitNumber} data-editing={edit.draft === null ? undefined : 'true'}>
      <ItemSelectCell item={item} selected={selected} onToggle={onToggle} />
      {edit.draft === null ? <ItemReadCells item={item} edit={edit} onDelete={onDelete} /> : <ItemEditCells item={item} draft={edit.draft} edit={edit} />}
    </tr>
  );
}

/** The item as read: its cells, and the buttons that edit or delete it. */
function ItemReadCells({ item, edit, onDelete }: { item: InventoryItemRecord; edit: ItemEdit; onDelete: (item: InventoryItemRecord) => void }) {
  const { t, tc } = useDashboardText('inventory');
  const label = item.unitNumber;
  return (
    <>
      <ItemCells item={item} />
      <td>
        <div className="row">
          <button type="button" className="button button-small" ref={edit.editButtonRef} onClick={edit.start}>
            {t('edit')}<span className="visually-hidden"> {label}</span>
          </button>
          <button type="button" className="button button-small" onClick={() => onDelete(item)}>
            {tc('delete')}<span className="visually-hidden"> {label}</span>
          </button>
        </div>
      </td>
    </>
  );
}
