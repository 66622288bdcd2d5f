// `prisma generate` does not use the schema engine, but every Prisma CLI command tries to download
// it first; pointing PRISMA_SCHEMA_ENGINE_BINARY at a no-op executable skips that download.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const stub = path.join(mkdtempSync(path.join(tmpdir(), 'prisma-engine-')), 'schema-engine');
  writeFileSync(stub, '#!/bin/sh\nexit 0\n');
  chmodSync(stub, 0o755);
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}
const result = spawnSync('prisma', ['generate'], { stdio: 'inherit', env, shell: false });
process.exit(result.status ?? 1);
