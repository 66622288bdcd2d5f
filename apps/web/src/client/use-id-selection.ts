'use client';

import { useState } from 'react';

/** A set of picked ids (checkboxes over a list), each toggled on its own or all at once. */
export function useIdSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return {
    selected,
    toggle: (id: string, on: boolean) =>
      setSelected((old) => {
        const next = new Set(old);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    /** Every one of `ids` picked, or every one unpicked; the rest kept. */
    toggleAll: (ids: readonly string[], on: boolean) =>
      setSelected((old) => {
        const next = new Set(old);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    /** Exactly `ids` picked; none for an empty list. */
    pickOnly: (ids: readonly string[]) => setSelected(new Set(ids)),
    /** `ids` no longer picked, the rest kept. */
    drop: (ids: ReadonlySet<string>) => setSelected((old) => new Set([...old].filter((id) => !ids.has(id)))),
  };
}
