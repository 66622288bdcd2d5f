import express from 'express';
import type { Router } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inventoryExportFileName } from '@staging/domain/download-name';
import { isLocale } from '@staging/domain/locale';
import { inventoryCsvChunks } from '@staging/services/inventory/export-inventory-csv';
import type { ApiDeps } from '../api-deps';
import { actorOf } from '../auth/request-session';
import { methodNotAllowed } from '../http/errors';
import { limitedSession } from '../http/read-limits';
import type { ReadLimit } from '../http/read-limits';

/** So spreadsheet programs read the UTF-8 (accented names) correctly, as the browser's downloads have it. */
const UTF8_BOM = '\uFEFF';

/** The first chunk, then the rest: the first was read to learn whether the property may be read at all. */
async function* startingWith(first: string, rest: AsyncGenerator<string, void>): AsyncGenerator<string, void> {
  yield first;
  yield* rest;
}

/**
 * GET /api/properties/:propertyId/inventory.csv?locale=es: the property's whole inventory as the
 * dashboard's export writes it, streamed a page of items at a time (docs/decisions/inventory.md
 * "Inventory at a customer's size"), so no answer is built in memory whatever the property holds.
 * Anyone but the property's agents (and admins) gets the same 404 as the tRPC procedures.
 */
export function createInventoryExportRouter(deps: ApiDeps, readLimit: ReadLimit): Router {
  const router = express.Router();
  router.get('/api/properties/:propertyId/inventory.csv', readLimit('/api/properties/:propertyId/inventory.csv'), async (req, res) => {
    const actor = actorOf(limitedSession(req));
    const propertyId = req.params['propertyId'] ?? '';
    const requested = typeof req.query['locale'] === 'string' ? req.query['locale'] : undefined;
    const chunks = inventoryCsvChunks({ db: deps.db, actor, now: deps.clock.now() }, { propertyId, locale: isLocale(requested) ? requested : 'en' });
    const first = await chunks.next();
    const property = await deps.db.property.findUnique({ where: { id: propertyId }, select: { title: true } });
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${inventoryExportFileName(property?.title, propertyId)}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Vary', 'Cookie');
    // pipeline waits for the socket to drain between chunks, and a client that goes away ends
    // the walk: the generator is returned and reads no further page.
    await pipeline(Readable.from(first.done === true ? [UTF8_BOM] : startingWith(`${UTF8_BOM}${first.value}`, chunks)), res);
  });
  router.all('/api/properties/:propertyId/inventory.csv', methodNotAllowed(['GET']));
  return router;
}
