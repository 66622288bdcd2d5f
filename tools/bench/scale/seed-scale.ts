// Set-based seed of one customer size for the scale benchmark: every table an agent's or a
// visitor's read walks, filled with INSERT … SELECT over generate_series, so that the 100× size
// (100k properties, 1M jobs) loads in a minute rather than hours of ORM calls. Triggers are off
// while it loads (session_replication_role = replica), so the spend totals that triggers keep
// are rebuilt once at the end with the migration's own ai_spend_rebuild().
import type pg from 'pg';

/** One size, as multiples of the demo-sized customer S. */
export interface ScaleSize {
  name: 'S' | 'M' | 'L';
  factor: 1 | 10 | 100;
}

export const SIZES: readonly ScaleSize[] = [
  { name: 'S', factor: 1 },
  { name: 'M', factor: 10 },
  { name: 'L', factor: 100 },
];

/** What a size holds, derived from its factor. */
export function shapeOf(size: ScaleSize) {
  const properties = 1_000 * size.factor;
  return {
    properties,
    /** One agency agent owns a tenth of every property; the rest are spread over other agents. */
    bigAgentProperties: properties / 10,
    otherAgents: 10 * size.factor,
    jobsPerProperty: 10,
    jobs: properties * 10,
    /** Items of the big agent's first property, over 10 units. */
    inventoryItems: 5_000 * size.factor,
    units: 10,
  };
}

/** IDs the benchmark reads with; the same at every size. */
export const SEEDED = {
  bigAgentId: 'scale-big-agent',
  adminId: 'scale-admin',
  /** The big agent's first property: its jobs, its inventory. */
  propertyId: 'sp-1',
} as const;

const STATEMENTS = (size: ScaleSize): string[] => {
  const s = shapeOf(size);
  const big = s.bigAgentProperties;
  return [
    `INSERT INTO "users" ("id", "email", "name", "passwordHash", "role")
     VALUES ('${SEEDED.bigAgentId}', 'big@scale.test', 'Agency agent', 'unused', 'AGENT'),
            ('${SEEDED.adminId}', 'admin@scale.test', 'Admin', 'unused', 'ADMIN')`,
    `INSERT INTO "users" ("id", "email", "name", "passwordHash")
     SELECT 'sa-' || n, 'agent-' || n || '@scale.test', 'Agent ' || n, 'unused' FROM generate_series(1, ${s.otherAgents}) n`,
    // Titles and cities repeat a few words, so that a search word matches a fixed share of the
    // catalogue at every size ("Sunny": a fifth, "Lisbon": a tenth).
    `INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "bedrooms", "bathrooms", "newImagesPublic", "createdAt", "updatedAt")
     SELECT 'sp-' || n,
       CASE WHEN n <= ${big} THEN '${SEEDED.bigAgentId}' ELSE 'sa-' || (1 + n % ${s.otherAgents}) END,
       (ARRAY['Sunny','Bright','Quiet','Spacious','Cozy'])[1 + n % 5] || ' ' || (ARRAY['flat','loft','house','studio'])[1 + (n / 5) % 4] || ' ' || n,
       n || ' Rua Augusta',
       (ARRAY['Lisbon','Porto','Madrid','Sevilla','Málaga','São Paulo','Braga','Valencia','Faro','Coimbra'])[1 + (n / 7) % 10],
       1 + n % 5, 1 + n % 3, true,
       now() - make_interval(mins => n), now() - make_interval(mins => n)
     FROM generate_series(1, ${s.properties}) n`,
    // The agency agent is also assigned to five properties of other agents, and every other
    // agent to five of the agency's, as colleagues covering a listing are.
    `INSERT INTO "property_agents" ("propertyId", "userId")
     SELECT 'sp-' || (${big} + n), '${SEEDED.bigAgentId}' FROM generate_series(1, 5) n
     UNION ALL
     SELECT 'sp-' || (1 + (a * 5 + n) % ${big}), 'sa-' || a FROM generate_series(1, ${s.otherAgents}) a, generate_series(1, 5) n`,
    `INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "roomType", "isMain")
     SELECT 'si-' || n, 'sp-' || n, 'originals/si-' || n, 'image/jpeg', 1600, 1200, 100000, 'BEDROOM', true
     FROM generate_series(1, ${s.properties}) n`,
    // Jobs of one property spread over the last year, so each month holds about a twelfth.
    `INSERT INTO "ai_jobs" ("id", "type", "status", "propertyId", "createdAt", "updatedAt", "startedAt", "completedAt")
     SELECT 'sj-' || n, 'ROOM_STAGING',
       (CASE WHEN n % 20 = 0 THEN 'FAILED' WHEN n % 20 = 1 THEN 'CANCELED' ELSE 'SUCCESS' END)::"AiJobStatus",
       'sp-' || (1 + (n - 1) / ${s.jobsPerProperty}), t, t, t, t
     FROM generate_series(1, ${s.jobs}) n, LATERAL (SELECT now() - make_interval(secs => (hashint4(n)::bigint & 2147483647) % 31536000) AS t) c`,
    `INSERT INTO "ai_room_staging_jobs" ("aiJobId", "originalImageId", "propertyId", "canonicalRoomType", "canonicalStyle", "submittedStyle",
       "providerModel", "promptVersion", "prompt", "quality", "aspectRatio", "outputFormat", "outputCompression", "createdAt")
     SELECT j."id", 'si-' || substr(j."propertyId", 4), j."propertyId", 'BEDROOM',
       (ARRAY['MODERN','SCANDINAVIAN','INDUSTRIAL','MID_CENTURY','COASTAL','FARMHOUSE'])[1 + abs(hashtext(j."id")) % 6]::"CanonicalStyle",
       'modern', 'openai/gpt-image-2', 'v1', 'Stage this room', 'medium', '1:1', 'jpeg', 92, j."createdAt"
     FROM "ai_jobs" j`,
    // 1.2 attempts per job: every fifth job failed its first attempt and bought a second.
    `INSERT INTO "ai_provider_attempts" ("aiJobId", "attemptNumber", "status", "providerStatus", "providerPredictionId", "costMicrousd", "createdAt")
     SELECT j."id", 1, (CASE WHEN right(j."id", 1) IN ('0', '5') THEN 'FAILED' ELSE 'SUCCEEDED' END)::"AttemptStatus",
       'succeeded', 'pred-1-' || j."id", 70000, j."createdAt"
     FROM "ai_jobs" j`,
    `INSERT INTO "ai_provider_attempts" ("aiJobId", "attemptNumber", "status", "providerStatus", "providerPredictionId", "costMicrousd", "createdAt")
     SELECT j."id", 2, 'SUCCEEDED', 'succeeded', 'pred-2-' || j."id", 70000, j."createdAt" + interval '1 minute'
     FROM "ai_jobs" j WHERE right(j."id", 1) IN ('0', '5')`,
    // Every property's tenth job left a variant: approved, or still waiting for review (one in 20).
    `INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "isStyled", "styledFromId",
       "style", "canonicalStyle", "reviewStatus", "reviewedAt", "aiJobId", "createdAt")
     SELECT 'sv-' || j."id", j."propertyId", 'staged/sv-' || j."id", 'image/jpeg', 1536, 1024, 200000, true, 'si-' || substr(j."propertyId", 4),
       'MODERN', 'MODERN', (CASE WHEN substr(j."id", 4)::int % 200 = 0 THEN 'PENDING_REVIEW' ELSE 'APPROVED' END)::"ReviewStatus",
       CASE WHEN substr(j."id", 4)::int % 200 = 0 THEN NULL ELSE j."createdAt" END, j."id", j."createdAt"
     FROM "ai_jobs" j WHERE substr(j."id", 4)::int % 10 = 0`,
    // 0.42 review events per job (its result approved, some later taken down).
    `INSERT INTO "property_image_review_events" ("imageId", "aiJobId", "actorUserId", "kind", "createdAt")
     SELECT 'sr-' || n, 'sj-' || n, NULL, (CASE WHEN n % 7 = 0 THEN 'REJECTED' ELSE 'APPROVED' END)::"ReviewEventKind", now()
     FROM generate_series(1, ${s.jobs}) n WHERE n % 100 < 42`,
    `INSERT INTO "property_units" ("id", "propertyId", "name")
     SELECT 'su-' || n, '${SEEDED.propertyId}', 'Tower ' || n FROM generate_series(1, ${s.units}) n`,
    `INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber", "floor", "status", "priceAdjustment", "notes")
     SELECT 'su-' || (1 + n % ${s.units}), 'A-' || lpad(n::text, 7, '0'), n % 40,
       (ARRAY['AVAILABLE','RESERVED','SOLD','RENTED'])[1 + n % 4]::"InventoryStatus", (n % 100) * 12.5, 'Corner unit ' || n
     FROM generate_series(1, ${s.inventoryItems}) n`,
  ];
};

/** Loads `size` into the empty migrated database behind `client`; returns the seconds it took. */
export async function seedScale(client: pg.ClientBase, size: ScaleSize): Promise<number> {
  const started = performance.now();
  await client.query('SET session_replication_role = replica');
  try {
    for (const statement of STATEMENTS(size)) await client.query(statement);
  } finally {
    await client.query('SET session_replication_role = DEFAULT');
  }
  await client.query('SELECT "ai_spend_rebuild"()');
  await client.query('VACUUM ANALYZE');
  return (performance.now() - started) / 1000;
}
