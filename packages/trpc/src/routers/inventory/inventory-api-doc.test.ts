// docs/inventory-api.md is what native and third-party clients code against: its procedure table
// must name every inventory procedure of the router, with its kind and its limit from the table,
// and its record shapes must be the ones the procedures declare as their output.
import { readFileSync } from 'node:fs';
import { expect, test } from '@jest/globals';
import type { z } from 'zod';
import { ZDeleteUnitResult, ZInventoryItemRecord, ZInventoryUnitRecord, ZPropertyUnitRecord } from '@staging/contracts/inventory';
import { PROCEDURE_LIMITS } from '@staging/http-edge/request-limits';
import type { ProcedurePath } from '@staging/http-edge/request-limits';
import { appRouter } from '../../root';

const doc = readFileSync(new URL('../../../../../docs/inventory-api.md', import.meta.url), 'utf8');
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).filter(
  ([path]) => path.startsWith('inventory.'),
);

test('the procedure table of docs/inventory-api.md matches the router and the request-limit table', () => {
  const documented = [...doc.matchAll(/^\| `(inventory\.\w+)` \| (query|mutation) \| (\d+) \|/gm)].map(([, path, kind, limit]) => [path, kind, Number(limit)]);
  const served = procedures.map(([path, procedure]) => [path, procedure._def.type, PROCEDURE_LIMITS[path as ProcedurePath].points]);
  expect(documented.sort()).toEqual(served.sort());
});

/** The fields of `interface <name> [extends <base>] { … }` in the document's TypeScript blocks, the base's included. */
function documentedFields(name: string): string[] {
  const match = new RegExp(`interface ${name}(?: extends (\\w+))? \\{\\n([\\s\\S]*?)\\n\\}`).exec(doc);
  if (match === null) return [];
  const own = [...(match[2] ?? '').matchAll(/^\s+(\w+):/gm)].map(([, field]) => field as string);
  return [...(match[1] === undefined ? [] : documentedFields(match[1])), ...own].sort();
}

test.each<[string, z.ZodObject]>([
  ['InventoryItemRecord', ZInventoryItemRecord],
  ['PropertyUnitRecord', ZPropertyUnitRecord],
  ['InventoryUnitRecord', ZInventoryUnitRecord],
])('docs/inventory-api.md documents %s with the fields the procedures declare', (name, schema) => {
  expect(documentedFields(name)).toEqual(Object.keys(schema.shape).sort());
});

test('the deleteUnit answer is documented as the unit plus deletedItemCount', () => {
  expect(doc).toContain('`PropertyUnitRecord & { deletedItemCount: number }`');
  expect(Object.keys(ZDeleteUnitResult.shape).sort()).toEqual([...Object.keys(ZPropertyUnitRecord.shape), 'deletedItemCount'].sort());
});
