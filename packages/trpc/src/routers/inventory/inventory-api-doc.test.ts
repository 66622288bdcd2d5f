// docs/inventory-api.md is what native and third-party clients code against: its procedure table
// must name every inventory procedure of the router, with its kind and its limit from the table.
import { readFileSync } from 'node:fs';
import { expect, test } from '@jest/globals';
import { PROCEDURE_LIMITS } from '@staging/domain/request-limits';
import type { ProcedurePath } from '@staging/domain/request-limits';
import { appRouter } from '../../root';

test('the procedure table of docs/inventory-api.md matches the router and the request-limit table', () => {
  const doc = readFileSync(new URL('../../../../../docs/inventory-api.md', import.meta.url), 'utf8');
  const documented = [...doc.matchAll(/^\| `(inventory\.\w+)` \| (query|mutation) \| (\d+) \|/gm)].map(([, path, kind, limit]) => [path, kind, Number(limit)]);
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  const served = Object.entries(procedures)
    .filter(([path]) => path.startsWith('inventory.'))
    .map(([path, procedure]) => [path, procedure._def.type, PROCEDURE_LIMITS[path as ProcedurePath].points]);
  expect(documented.sort()).toEqual(served.sort());
});
