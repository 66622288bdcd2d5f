// Baseline for public-read-bench.ts: the smallest Express 5 app answering the two anonymous
// reads with the same I/O the api does and nothing else (no validation, logging or DTO rules),
// run as its own process on PORT:
//
// - GET /api/public/properties/:id: one raw statement reading the property and its public
//   images (originals and APPROVED variants), returned as JSON;
// - GET /api/public/search?q=: SMEMBERS of the index, one pipelined HMGET per candidate, the
//   matches' details in a second pipeline (the api's two round trips), returned as JSON.
import express from 'express';
import { Redis } from 'ioredis';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? '', max: 10 });
const redis = new Redis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379');
const indexKey = `psearch:index${process.env.QUEUE_SUFFIX ?? ''}`;
const documentKey = (id: string) => `psearch:property:${id}`;

const PROPERTY_SQL = `
  SELECT p."id", p."title", p."address", p."city", p."description", p."bedrooms", p."bathrooms", p."features",
    COALESCE((
      SELECT json_agg(json_build_object('id', i."id", 'width', i."width", 'height', i."height",
          'displayOrder', i."displayOrder", 'isMain', i."isMain", 'isStyled', i."isStyled", 'isPublic', i."isPublic",
          'styledFromId', i."styledFromId", 'style', i."style", 'roomType', i."roomType")
        ORDER BY i."displayOrder", i."createdAt", i."id")
      FROM "property_images" i
      WHERE i."propertyId" = p."id"
        AND ((NOT i."isStyled" AND i."isPublic") OR (i."reviewStatus" = 'APPROVED' AND EXISTS (
          SELECT 1 FROM "property_images" o WHERE o."id" = i."styledFromId" AND NOT o."isStyled" AND o."isPublic")))
    ), '[]') AS "images"
  FROM "properties" p WHERE p."id" = $1`;

const app = express();
app.get('/api/public/properties/:propertyId', (req, res, next) => {
  pool.query(PROPERTY_SQL, [req.params['propertyId']]).then(({ rows }) => res.json({ property: rows[0] ?? null }), next);
});
app.get('/api/public/search', (req, res, next) => {
  const tokens = String(req.query['q'] ?? '').toLowerCase().split(/\s+/).filter((token) => token !== '');
  const search = async () => {
    const ids = await redis.smembers(indexKey);
    const candidates = redis.pipeline();
    for (const id of ids) candidates.hmget(documentKey(id), 'id', 'title', 'text');
    const matches = ((await candidates.exec()) ?? [])
      .map(([, value]) => value as (string | null)[])
      .filter(([id, , text]) => id && text && tokens.every((token) => text.includes(token)))
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])))
      .slice(0, 20);
    const details = redis.pipeline();
    for (const [id] of matches) details.hmget(documentKey(id!), 'id', 'title', 'city', 'address', 'bedrooms', 'bathrooms', 'images');
    return ((await details.exec()) ?? []).map(([, value]) => value);
  };
  search().then((results) => res.json({ results }), next);
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`bare public reads listening on ${process.env.PORT}\n`));
