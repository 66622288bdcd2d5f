import type { ChangeEvent } from 'react';
import { isOneOf } from '@staging/domain/one-of';

/**
 * The change handler of a `<select>` whose options are `values`: the chosen value reaches
 * `choose` typed as one of them, which a bare `event.target.value` string is not.
 */
export function onChoiceOf<T extends string>(values: readonly T[], choose: (value: T) => void) {
  return (event: ChangeEvent<HTMLSelectElement>) => {
    const { value } = event.target;
    if (isOneOf(values, value)) choose(value);
  };
}
