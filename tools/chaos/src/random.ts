// Every random choice of a chaos run comes from one seeded generator, so a failing seed replays
// the same schedule (the same kills, faults and flips at the same offsets).
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export interface Random {
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** `items[index]`, refusing an index outside the list rather than handing back undefined as a T. */
export function itemAt<T>(items: readonly T[], index: number): T {
  if (!Number.isInteger(index) || index < 0 || index >= items.length) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return items[index] as T;
}

export function createRandom(seed: number): Random {
  const rng = xoroshiro128plus(seed);
  const unit = (): number => uniformFloat64(rng);
  return {
    int: (min, max) => uniformInt(rng, min, max),
    between: (min, max) => min + unit() * (max - min),
    chance: (probability) => unit() < probability,
    pick(items) {
      if (items.length === 0) throw new Error('pick from an empty list');
      return itemAt(items, uniformInt(rng, 0, items.length - 1));
    },
  };
}
