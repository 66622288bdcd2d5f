-- Realistic v1 data, loaded on a database migrated up to 0007 so the tests can apply 0008-0010 on
-- top and check every backfill rule. IDs are readable on purpose; the comment on each staged row
-- says what 0009 must do with it (migrations.integration.test.ts asserts exactly that).

INSERT INTO "users" ("id", "email", "name", "passwordHash", "role", "createdAt") VALUES
    ('usr-maria', 'maria.lopez@example.test', 'Maria Lopez', 'scrypt$16384$8$1$bGVnYWN5$bGVnYWN5', 'AGENT', '2023-01-10T09:00:00Z'),
    ('usr-tom',   'tom.becker@example.test',  'Tom Becker',  'scrypt$16384$8$1$bGVnYWN5$bGVnYWN5', 'AGENT', '2023-02-14T09:00:00Z'),
    ('usr-admin', 'support@example.test',     'Support',     'scrypt$16384$8$1$bGVnYWN5$bGVnYWN5', 'ADMIN', '2023-01-01T09:00:00Z');

INSERT INTO "sessions" ("id", "tokenHash", "userId", "expiresAt") VALUES
    ('ses-maria', 'legacy-token-hash-maria', 'usr-maria', '2030-01-01T00:00:00Z');

INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "bedrooms", "bathrooms", "features") VALUES
    ('prop-elm',    'usr-maria', 'Sunny 2BR on Elm Street', '12 Elm Street',    'Portland', 2, 1, ARRAY['balcony', 'parking']),
    ('prop-harbor', 'usr-tom',   'Harbor View Loft',        '3 Harbor Way',     'Seattle',  1, 1, ARRAY['sea view']),
    ('prop-oak',    'usr-maria', 'Oak Lane Family Home',    '77 Oak Lane',      'Portland', 4, 2, ARRAY[]::TEXT[]);

INSERT INTO "property_agents" ("propertyId", "userId") VALUES ('prop-harbor', 'usr-maria');
INSERT INTO "property_units" ("id", "propertyId", "name") VALUES ('unit-harbor-1br', 'prop-harbor', 'One bedroom');
INSERT INTO "inventory_items" ("id", "propertyUnitId", "unitNumber", "floor", "status", "priceAdjustment", "notes") VALUES
    ('inv-harbor-101', 'unit-harbor-1br', '101', 1, 'AVAILABLE', NULL, NULL),
    ('inv-harbor-204', 'unit-harbor-1br', '204', 2, 'RESERVED', 1500.00, 'Corner unit');

-- Originals. prop-oak has two covers (v1 did not enforce one): img-oak-hall (displayOrder 0) stays.
INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "displayOrder", "isMain", "createdAt") VALUES
    ('img-elm-living',     'prop-elm',    'properties/prop-elm/img-elm-living.jpg',        'image/jpeg', 4032, 3024, 2811004, 0, true,  '2024-01-05T10:00:00Z'),
    ('img-elm-bedroom',    'prop-elm',    'properties/prop-elm/img-elm-bedroom.jpg',       'image/jpeg', 4032, 3024, 2544120, 1, false, '2024-01-05T10:01:00Z'),
    ('img-harbor-kitchen', 'prop-harbor', 'properties/prop-harbor/img-harbor-kitchen.jpg', 'image/jpeg', 3000, 2000, 1903331, 0, false, '2024-02-01T08:00:00Z'),
    ('img-harbor-living',  'prop-harbor', 'properties/prop-harbor/img-harbor-living.jpg',  'image/jpeg', 3000, 2000, 1766500, 1, false, '2024-02-01T08:01:00Z'),
    ('img-oak-front',      'prop-oak',    'properties/prop-oak/img-oak-front.jpg',         'image/png',  2048, 1536, 3300112, 1, true,  '2024-03-01T12:00:00Z'),
    ('img-oak-hall',       'prop-oak',    'properties/prop-oak/img-oak-hall.jpg',          'image/png',  2048, 1536, 3012877, 0, true,  '2024-03-01T12:05:00Z');

-- v1 jobs: inputs lived in payload as typed by the agent.
INSERT INTO "ai_jobs" ("id", "type", "status", "propertyId", "requestedByUserId", "payload", "result", "errorMessage", "createdAt", "completedAt") VALUES
    ('job-elm-modern-1',  'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-living","style":"Modern","roomType":"living room"}', NULL, NULL, '2024-03-01T09:00:00Z', '2024-03-01T09:01:00Z'),
    ('job-elm-modern-2',  'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-living","style":" contemporary ","roomType":"living room"}', NULL, NULL, '2024-05-01T09:00:00Z', '2024-05-01T09:01:00Z'),
    ('job-elm-scandi',    'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-living","style":"SCANDI"}', NULL, NULL, '2024-05-02T09:00:00Z', '2024-05-02T09:01:00Z'),
    ('job-elm-nofurn-1',  'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-living","style":"no-furniture"}', NULL, NULL, '2024-02-01T09:00:00Z', '2024-02-01T09:01:00Z'),
    ('job-elm-nofurn-2',  'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-living","style":"No-Furniture"}', NULL, NULL, '2024-04-01T09:00:00Z', '2024-04-01T09:01:00Z'),
    ('job-elm-bed-retro', 'STAGE_ROOM',  'COMPLETED', 'prop-elm',    'usr-maria', '{"imageId":"img-elm-bedroom","style":"Retro"}', NULL, NULL, '2024-06-01T09:00:00Z', '2024-06-01T09:03:00Z'),
    ('job-harbor-farm',   'STAGE_ROOM',  'COMPLETED', 'prop-harbor', 'usr-tom',   '{"imageId":"img-harbor-kitchen","style":"Farmhouse"}', NULL, NULL, '2024-07-01T09:00:00Z', '2024-07-01T09:01:00Z'),
    ('job-harbor-loft',   'STAGE_ROOM',  'COMPLETED', 'prop-harbor', 'usr-tom',   '{"imageId":"img-harbor-living","style":"LOFT"}', NULL, NULL, '2024-07-02T09:00:00Z', '2024-07-02T09:01:00Z'),
    ('job-oak-pending',   'STAGE_ROOM',  'PENDING',   'prop-oak',    'usr-maria', '{"imageId":"img-oak-front","style":"rustic"}', NULL, NULL, '2024-08-01T09:00:00Z', NULL),
    ('job-oak-failed',    'STAGE_ROOM',  'FAILED',    'prop-oak',    'usr-maria', '{"imageId":"img-oak-front","style":"boho"}', NULL, 'Unknown style', '2024-08-01T09:05:00Z', '2024-08-01T09:05:01Z'),
    ('job-elm-desc',      'DESCRIPTION', 'COMPLETED', 'prop-elm',    'usr-maria', '{"tone":"friendly"}', '{"description":"Bright two-bedroom flat."}', NULL, '2024-01-06T09:00:00Z', '2024-01-06T09:00:30Z');

-- Staged images (isStyled). Expected outcome of 0009 in the trailing comment.
INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "isMain", "isStyled", "styledFromId", "style", "aiJobId", "createdAt") VALUES
    ('stg-elm-modern-old',      'prop-elm',    'legacy/staged/stg-elm-modern-old.jpg',      'image/jpeg', 1024, 1024, 300001, false, true, 'img-elm-living',     'Modern',         'job-elm-modern-1',  '2024-03-01T09:01:00Z'), -- MIGRATED_DUPLICATE (older MODERN)
    ('stg-elm-modern-new',      'prop-elm',    'legacy/staged/stg-elm-modern-new.jpg',      'image/jpeg', 1024, 1024, 300002, false, true, 'img-elm-living',     ' contemporary ', 'job-elm-modern-2',  '2024-05-01T09:01:00Z'), -- kept, MODERN
    ('stg-elm-scandi',          'prop-elm',    'legacy/staged/stg-elm-scandi.jpg',          'image/jpeg', 1024, 1024, 300003, false, true, 'img-elm-living',     'SCANDI',         'job-elm-scandi',    '2024-05-02T09:01:00Z'), -- kept, SCANDINAVIAN
    ('stg-elm-nofurn-old',      'prop-elm',    'legacy/staged/stg-elm-nofurn-old.jpg',      'image/jpeg', 1024, 1024, 300004, false, true, 'img-elm-living',     'no-furniture',   'job-elm-nofurn-1',  '2024-02-01T09:01:00Z'), -- MIGRATED_DUPLICATE_LEGACY
    ('stg-elm-nofurn-new',      'prop-elm',    'legacy/staged/stg-elm-nofurn-new.jpg',      'image/jpeg', 1024, 1024, 300005, false, true, 'img-elm-living',     'No-Furniture',   'job-elm-nofurn-2',  '2024-04-01T09:01:00Z'), -- kept, display-only
    ('stg-elm-artdeco',         'prop-elm',    'legacy/staged/stg-elm-artdeco.jpg',         'image/jpeg', 1024, 1024, 300006, false, true, 'img-elm-living',     'Art Deco',       NULL,                '2024-04-15T09:01:00Z'), -- kept, unknown name: display-only
    ('stg-elm-bed-a',           'prop-elm',    'legacy/staged/stg-elm-bed-a.jpg',           'image/jpeg', 1024, 1024, 300007, false, true, 'img-elm-bedroom',    'mid_century',    'job-elm-bed-retro', '2024-06-01T09:02:00Z'), -- MIGRATED_DUPLICATE_JOB_RESULT
    ('stg-elm-bed-b',           'prop-elm',    'legacy/staged/stg-elm-bed-b.jpg',           'image/jpeg', 1024, 1024, 300008, false, true, 'img-elm-bedroom',    'Retro',          'job-elm-bed-retro', '2024-06-01T09:03:00Z'), -- kept, MID_CENTURY
    ('stg-elm-bed-unlabeled-1', 'prop-elm',    'legacy/staged/stg-elm-bed-unlabeled-1.jpg', 'image/jpeg', 1024, 1024, 300009, false, true, 'img-elm-bedroom',    NULL,             NULL,                '2024-01-20T09:00:00Z'), -- kept (NULL style)
    ('stg-elm-bed-unlabeled-2', 'prop-elm',    'legacy/staged/stg-elm-bed-unlabeled-2.jpg', 'image/jpeg', 1024, 1024, 300010, false, true, 'img-elm-bedroom',    NULL,             NULL,                '2024-01-21T09:00:00Z'), -- kept (NULL style)
    ('stg-elm-orphan-null',     'prop-elm',    'legacy/staged/stg-elm-orphan-null.jpg',     'image/jpeg', 1024, 1024, 300011, true,  true, NULL,                 'industrial',     NULL,                '2023-12-01T09:00:00Z'), -- MIGRATED_ORPHAN (no original; was a cover)
    ('stg-harbor-dangling',     'prop-harbor', 'legacy/staged/stg-harbor-dangling.jpg',     'image/jpeg', 1024, 1024, 300012, false, true, 'img-deleted-2023',   'coastal',        NULL,                '2023-11-01T09:00:00Z'), -- MIGRATED_ORPHAN (dangling)
    ('stg-elm-of-staged',       'prop-elm',    'legacy/staged/stg-elm-of-staged.jpg',       'image/jpeg', 1024, 1024, 300013, false, true, 'stg-elm-scandi',     'Beach',          NULL,                '2024-05-03T09:00:00Z'), -- MIGRATED_ORPHAN (staged from staged)
    ('stg-harbor-cover',        'prop-harbor', 'legacy/staged/stg-harbor-cover.jpg',        'image/jpeg', 1024, 1024, 300014, true,  true, 'img-harbor-kitchen', 'Farmhouse',      'job-harbor-farm',   '2024-07-01T09:01:00Z'), -- kept, FARMHOUSE, cover moves to img-harbor-kitchen
    ('stg-harbor-loft',         'prop-harbor', 'legacy/staged/harbor-loft.jpg',             'image/jpeg', 1024, 1024, 300015, false, true, 'img-harbor-living',  'LOFT',           'job-harbor-loft',   '2024-07-02T09:01:00Z'), -- kept, INDUSTRIAL
    ('stg-harbor-urban-dup',    'prop-harbor', 'legacy/staged/harbor-loft.jpg',             'image/jpeg', 1024, 1024, 300015, false, true, 'img-harbor-living',  'urban',          NULL,                '2024-07-02T09:00:59Z'), -- MIGRATED_DUPLICATE, same object as the survivor: not scheduled
    ('stg-oak-hall-coastal',    'prop-oak',    'legacy/staged/stg-oak-hall-coastal.jpg',    'image/jpeg', 1024, 1024, 300016, true,  true, 'img-oak-hall',       'hamptons',       NULL,                '2024-03-02T09:00:00Z'); -- kept, COASTAL, cover flag cleared (original covers exist)
