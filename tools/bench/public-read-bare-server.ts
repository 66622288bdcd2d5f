// Baseline for public-read-bench.ts: the smallest Express 5 app answering the two anonymous
// reads with the same I/O the api does and nothing else (no validation, logging or DTO rules),
// run as its own process on PORT:
//
// - GET /api/public/properties/:id: one raw statement reading the property and its public
//   images (originals and APPROVED variants), returned as JSON;
// - GET /api/public/search?q=: one statement reading the first 20 matches of
//   public_search_documents in title order (the api's page query; it also counts), returned as JSON.
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? '', max: 10 });

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
  const words = String(req.query['q'] ?? '').split(/[^\p{L}\p{M}\p{N}]+/u).filter((word) => word !== '');
  const condition = words.length === 0 ? 'TRUE' : 'd."searchVector" @@ public_search_query($1::text[])';
  pool
    .query(
      `WITH m AS MATERIALIZED (SELECT d."propertyId", d."title" FROM "public_search_documents" d WHERE ${condition})
       SELECT d."propertyId", d."title", d."city", d."address", d."bedrooms", d."bathrooms", d."images"
       FROM (SELECT * FROM m ORDER BY m."title", m."propertyId" LIMIT 20) p
       JOIN "public_search_documents" d ON d."propertyId" = p."propertyId" ORDER BY p."title", p."propertyId"`,
      words.length === 0 ? [] : [words],
    )
    .then(({ rows }) => res.json({ results: rows }), next);
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`bare public reads listening on ${process.env.PORT}\n`));
