// Set-based seed of a customer at one size, for the scale benchmark (a whole deployment) and the
// browser test of the dashboard at that size (one agency agent's share, beside other tests' data).
// Every table an agent's or a visitor's read walks is filled with INSERT … SELECT over
// generate_series, so that the 100× size (100k properties, 1M jobs) loads in about a minute
// rather than hours of ORM calls. Triggers are off while it loads (session_replication_role =
// replica), so the spend totals that triggers keep are rebuilt at the end with the migration's own
// ai_spend_rebuild().
import type pg from 'pg';

/** One size, as multiples of the demo-sized customer S. */
export interface ScaleSize {
  name: 'S' | 'M' | 'L';
  factor: 1 | 10 | 100;
}

export const SCALE_SIZES: readonly ScaleSize[] = [
  { name: 'S', factor: 1 },
  { name: 'M', factor: 10 },
  { name: 'L', factor: 100 },
];

/** What a size holds, derived from its factor. */
export function scaleShapeOf(size: ScaleSize) {
  const properties = 1_000 * size.factor;
  return {
    properties,
    /** One agency agent owns a tenth of every property; the rest are spread over other agents. */
    agencyProperties: properties / 10,
    otherAgents: 10 * size.factor,
    jobsPerProperty: 10,
    jobs: properties * 10,
    /** Items of the agency's first property, over 10 units. */
    inventoryItems: 5_000 * size.factor,
    units: 10,
  };
}

export interface ScaleSeedOptions {
  /** Starts every seeded ID, so a seed can share a database with other data. */
  prefix: string;
  /** The agency agent, an existing user; omitted: one is made (with an admin beside it). */
  agencyAgentId?: string;
  /**
   * Only the agency agent's share (its properties, their jobs, spend and inventory), private:
   * no other agents, and no photo on a public page. A whole deployment otherwise.
   */
  agencyOnly?: boolean;
}

/** IDs of what a seed made, for the reads that use them. */
export interface ScaleSeed {
  agencyAgentId: string;
  adminId: string | null;
  /** The agency's first property: its jobs, its inventory. */
  propertyId: string;
  /** One of that property's units, with a tenth of its items. */
  unitId: string;
}

const SEEDED_TABLES = [
  'users', 'properties', 'property_agents', 'property_images', 'ai_jobs', 'ai_room_staging_jobs', 'ai_provider_attempts',
  'property_image_review_events', 'property_units', 'inventory_items', 'ai_spend_property_months', 'ai_spend_owner_months',
  'public_search_documents', 'public_search_words',
];

function statements(size: ScaleSize, options: ScaleSeedOptions, agencyAgentId: string): string[] {
  const s = scaleShapeOf(size);
  const p = options.prefix;
  const big = s.agencyProperties;
  const properties = options.agencyOnly === true ? big : s.properties;
  const jobs = properties * s.jobsPerProperty;
  const perJob = s.jobsPerProperty;
  const isPublic = options.agencyOnly !== true;
  const deployment = [
    `INSERT INTO "users" ("id", "email", "name", "passwordHash")
     SELECT '${p}a-' || n, '${p}agent-' || n || '@scale.test', 'Agent ' || n, 'unused' FROM generate_series(1, ${s.otherAgents}) n`,
    // The agency agent is also assigned to five properties of other agents, and every other
    // agent to five of the agency's, as colleagues covering a listing are.
    `INSERT INTO "property_agents" ("propertyId", "userId")
     SELECT '${p}p-' || (${big} + n), '${agencyAgentId}' FROM generate_series(1, 5) n
     UNION ALL
     SELECT '${p}p-' || (1 + (a * 5 + n) % ${big}), '${p}a-' || a FROM generate_series(1, ${s.otherAgents}) a, generate_series(1, 5) n`,
  ];
  return [
    // Titles and cities repeat a few words, so that a search word matches a fixed share of the
    // catalogue at every size ("Sunny": a fifth, "Lisbon": a tenth).
    `INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "bedrooms", "bathrooms", "newImagesPublic", "createdAt", "updatedAt")
     SELECT '${p}p-' || n,
       CASE WHEN n <= ${big} THEN '${agencyAgentId}' ELSE '${p}a-' || (1 + n % ${s.otherAgents}) END,
       (ARRAY['Sunny','Bright','Quiet','Spacious','Cozy'])[1 + n % 5] || ' ' || (ARRAY['flat','loft','house','studio'])[1 + (n / 5) % 4] || ' ' || n,
       n || ' Rua Augusta',
       (ARRAY['Lisbon','Porto','Madrid','Sevilla','Málaga','São Paulo','Braga','Valencia','Faro','Coimbra'])[1 + (n / 7) % 10],
       1 + n % 5, 1 + n % 3, ${isPublic},
       now() - make_interval(mins => n), now() - make_interval(mins => n)
     FROM generate_series(1, ${properties}) n`,
    ...(options.agencyOnly === true ? [] : deployment),
    `INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "roomType", "isMain", "isPublic")
     SELECT '${p}i-' || n, '${p}p-' || n, 'originals/${p}i-' || n, 'image/jpeg', 1600, 1200, 100000, 'BEDROOM', true, ${isPublic}
     FROM generate_series(1, ${properties}) n`,
    // Jobs of one property spread over the last year, so each month holds about a twelfth.
    `INSERT INTO "ai_jobs" ("id", "type", "status", "propertyId", "createdAt", "updatedAt", "startedAt", "completedAt")
     SELECT '${p}j-' || n, 'ROOM_STAGING',
       (CASE WHEN n % 20 = 0 THEN 'FAILED' WHEN n % 20 = 1 THEN 'CANCELED' ELSE 'SUCCESS' END)::"AiJobStatus",
       '${p}p-' || (1 + (n - 1) / ${perJob}), t, t, t, t
     FROM generate_series(1, ${jobs}) n, LATERAL (SELECT now() - make_interval(secs => (hashint4(n)::bigint & 2147483647) % 31536000) AS t) c`,
    `INSERT INTO "ai_room_staging_jobs" ("aiJobId", "originalImageId", "propertyId", "canonicalRoomType", "canonicalStyle", "submittedStyle",
       "providerModel", "promptVersion", "prompt", "quality", "aspectRatio", "outputFormat", "outputCompression", "createdAt")
     SELECT j."id", '${p}i-' || (1 + (n - 1) / ${perJob}), j."propertyId", 'BEDROOM',
       (ARRAY['MODERN','SCANDINAVIAN','INDUSTRIAL','MID_CENTURY','COASTAL','FARMHOUSE'])[1 + n % 6]::"CanonicalStyle",
       'modern', 'openai/gpt-image-2', 'v1', 'Stage this room', 'medium', '1:1', 'jpeg', 92, j."createdAt"
     FROM generate_series(1, ${jobs}) n JOIN "ai_jobs" j ON j."id" = '${p}j-' || n`,
    // 1.2 attempts per job: every fifth job failed its first attempt and bought a second.
    `INSERT INTO "ai_provider_attempts" ("aiJobId", "attemptNumber", "status", "providerStatus", "providerPredictionId", "costMicrousd", "createdAt")
     SELECT j."id", a, (CASE WHEN a = 1 AND n % 5 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END)::"AttemptStatus",
       'succeeded', 'pred-' || a || '-' || j."id", 70000, j."createdAt" + make_interval(mins => a - 1)
     FROM generate_series(1, ${jobs}) n JOIN "ai_jobs" j ON j."id" = '${p}j-' || n, generate_series(1, 2) a
     WHERE a = 1 OR n % 5 = 0`,
    // Every property's tenth job left a variant: approved, or still waiting for review (one in
    // four, so that even at S the agency agent's waiting page is full and S and L read a page alike).
    `INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "isStyled", "styledFromId",
       "style", "canonicalStyle", "reviewStatus", "reviewedAt", "aiJobId", "createdAt")
     SELECT '${p}v-' || n, j."propertyId", 'staged/${p}v-' || n, 'image/jpeg', 1536, 1024, 200000, true, '${p}i-' || (1 + (n - 1) / ${perJob}),
       'MODERN', 'MODERN', (CASE WHEN n % 40 = 0 THEN 'PENDING_REVIEW' ELSE 'APPROVED' END)::"ReviewStatus",
       CASE WHEN n % 40 = 0 THEN NULL ELSE j."createdAt" END, j."id", j."createdAt"
     FROM generate_series(${perJob}, ${jobs}, ${perJob}) n JOIN "ai_jobs" j ON j."id" = '${p}j-' || n`,
    // 0.42 review events per job (its result approved, some later taken down).
    `INSERT INTO "property_image_review_events" ("imageId", "aiJobId", "actorUserId", "kind", "createdAt")
     SELECT '${p}r-' || n, '${p}j-' || n, NULL, (CASE WHEN n % 7 = 0 THEN 'REJECTED' ELSE 'APPROVED' END)::"ReviewEventKind", now()
     FROM generate_series(1, ${jobs}) n WHERE n % 100 < 42`,
    `INSERT INTO "property_units" ("id", "propertyId", "name")
     SELECT '${p}u-' || n, '${p}p-1', 'Tower ' || n FROM generate_series(1, ${s.units}) n`,
    `INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber", "floor", "status", "priceAdjustment", "notes")
     SELECT '${p}u-' || (1 + n % ${s.units}), 'A-' || lpad(n::text, 7, '0'), n % 40,
       (ARRAY['AVAILABLE','RESERVED','SOLD','RENTED'])[1 + n % 4]::"InventoryStatus", (n % 100) * 12.5, 'Corner unit ' || n
     FROM generate_series(1, ${s.inventoryItems}) n`,
  ];
}

/**
 * Loads `size` into the migrated database behind `client` (`options.prefix` keeps its IDs apart
 * from other data); returns what it made. The IDs and prefix are written into SQL text, so they
 * must be plain identifiers (letters, digits, `-`, `_`).
 */
export async function seedScale(client: pg.ClientBase, size: ScaleSize, options: ScaleSeedOptions): Promise<ScaleSeed> {
  for (const id of [options.prefix, options.agencyAgentId ?? '']) {
    if (!/^[A-Za-z0-9_-]*$/.test(id)) throw new Error(`seedScale: ${id} is not a plain identifier`);
  }
  let adminId: string | null = null;
  let agencyAgentId = options.agencyAgentId;
  if (agencyAgentId === undefined) {
    agencyAgentId = `${options.prefix}agency`;
    adminId = `${options.prefix}admin`;
    await client.query(
      `INSERT INTO "users" ("id", "email", "name", "passwordHash", "role")
       VALUES ($1, $1 || '@scale.test', 'Agency agent', 'unused', 'AGENT'), ($2, $2 || '@scale.test', 'Admin', 'unused', 'ADMIN')`,
      [agencyAgentId, adminId],
    );
  }
  await client.query('SET session_replication_role = replica');
  try {
    for (const statement of statements(size, options, agencyAgentId)) await client.query(statement);
  } finally {
    await client.query('SET session_replication_role = DEFAULT');
  }
  await client.query('SELECT "ai_spend_rebuild"()');
  // Every property is a public listing: the search documents the worker would have written.
  await client.query(`SELECT public_search_documents_write(array_agg("id")) FROM "properties" WHERE "id" LIKE $1`, [`${options.prefix}p-%`]);
  // Index-only scans need the visibility map that a vacuum writes; autovacuum would get there later.
  await client.query(`VACUUM ANALYZE ${SEEDED_TABLES.map((table) => `"${table}"`).join(', ')}`);
  return { agencyAgentId, adminId, propertyId: `${options.prefix}p-1`, unitId: `${options.prefix}u-1` };
}
