// The streamed inventory export: the property's agents (and admins) get every item, a page at a
// time, in the text the dashboard's export has always written; anyone else gets the tRPC answer's
// 404, and nobody may cache it.
import { createProperty, createPropertyUnit } from '@staging/db/testing/factories';
import { LIST_ITEMS_MAX_LIMIT } from '@staging/domain/inventory';
import { INVENTORY_EXPORT_HEADER, inventoryExportRow, toCsv } from '@staging/domain/inventory-csv-cells';
import { getInventoryUnits } from '@staging/services/inventory/get-units';
import { call, useApiTestContext } from './support/fixtures';

const api = useApiTestContext();

const exportUrl = (propertyId: string, locale = 'es') => `${api.url}/api/properties/${propertyId}/inventory.csv?locale=${locale}`;

it("streams every item of a property past one page, in getUnits' order and the dashboard's text, formulas neutralized", async () => {
  const property = await createProperty(api.db, { ownerAgentId: api.actors.owner.id, assignedAgentIds: [api.actors.assigned.id], title: 'Torre Azul' });
  const [tower, annex] = [await createPropertyUnit(api.db, { propertyId: property.id, name: 'Tower' }), await createPropertyUnit(api.db, { propertyId: property.id, name: 'Annex' })];
  const count = LIST_ITEMS_MAX_LIMIT + 7;
  await api.db.$executeRaw`
    INSERT INTO "inventory_items" ("id", "propertyUnitId", "unitNumber", "floor", "status", "priceAdjustment", "notes", "updatedAt")
    SELECT 'exp-' || n || '-' || ${tower.id}, ${tower.id}, 'T-' || lpad(n::text, 4, '0'), n % 20, 'AVAILABLE', n * 10, CASE WHEN n = 3 THEN '=HYPERLINK("http://evil.test")' || chr(10) || 'second' ELSE '' END, now()
    FROM generate_series(1, ${count}) n`;
  await api.db.inventoryItem.create({ data: { propertyUnitId: annex.id, unitNumber: 'A-1', status: 'SOLD', notes: 'corner' } });

  const answer = await call(exportUrl(property.id), { cookie: api.actors.cookies.assigned });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(answer.headers.get('content-disposition')).toBe('attachment; filename="torre-azul-inventory.csv"');
  expect(answer.headers.get('cache-control')).toBe('private, no-store');
  expect(answer.headers.get('vary')).toMatch(/cookie/i);
  const text = await answer.text();

  // What the dashboard wrote from getUnits: units in creation order, items in code-point order.
  const { units } = await getInventoryUnits({ db: api.db, actor: { id: api.actors.owner.id, role: 'AGENT' }, now: new Date() }, { propertyId: property.id });
  const rows = units.flatMap((unit) => unit.items.map((item) => inventoryExportRow(unit.name, item, 'es')));
  expect(text).toBe(toCsv([INVENTORY_EXPORT_HEADER, ...rows]));
  expect(text.split('\r\n')).toHaveLength(count + 2);
  expect(text).toContain(`"'=HYPERLINK(""http://evil.test"")\nsecond"`);
  expect(text.slice(text.lastIndexOf('\r\n') + 2)).toBe('Annex,A-1,,Vendida,,corner');
});

it('answers a stranger 404 and a visitor without a session 401, before writing anything', async () => {
  const property = await createProperty(api.db, { ownerAgentId: api.actors.owner.id });
  const stranger = await call(exportUrl(property.id), { cookie: api.actors.cookies.unrelated });
  expect(stranger.status).toBe(404);
  expect(stranger.headers.get('content-type')).toMatch(/json/);
  expect((await call(exportUrl(property.id))).status).toBe(401);
  expect((await call(exportUrl('no-such-property'), { cookie: api.actors.cookies.owner })).status).toBe(404);
  expect((await call(exportUrl(property.id), { method: 'POST', cookie: api.actors.cookies.owner })).status).toBe(405);
});
