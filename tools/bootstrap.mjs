#!/usr/bin/env node
// The two README commands (`npm start`, `npm test`) land here. This file runs on a machine that
// has only Node and npm: it fetches the pinned pnpm through npx, installs the workspace when the
// lockfile changed, generates the Prisma client, then hands over to the TypeScript tools.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pnpmVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const commands = { start: 'tools/stack/src/start.ts', test: 'tools/stack/src/test-all.ts' };

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function pnpm(args) {
  return run('npx', ['-y', `pnpm@${pnpmVersion}`, ...args]);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node ${process.versions.node} is too old: this project needs Node 20.19 or newer.`);
    process.exit(1);
  }
}

function installIfNeeded() {
  const stamp = path.join(root, 'node_modules', '.install-stamp');
  const lock = path.join(root, 'pnpm-lock.yaml');
  const fresh = existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  console.log(`Installing dependencies with pnpm ${pnpmVersion} …`);
  if (pnpm(['install', '--frozen-lockfile']) !== 0) process.exit(1);
  writeFileSync(stamp, new Date().toISOString());
}

function generatePrismaClient() {
  const schema = path.join(root, 'packages/db/prisma/schema.prisma');
  const generated = path.join(root, 'packages/db/src/generated/prisma/client.ts');
  if (existsSync(generated) && statSync(generated).mtimeMs >= statSync(schema).mtimeMs) return;
  if (pnpm(['--filter', '@staging/db', 'db:generate']) !== 0) process.exit(1);
}

const command = process.argv[2];
if (!(command in commands)) {
  console.error(`usage: node tools/bootstrap.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
checkNode();
installIfNeeded();
generatePrismaClient();
// The pinned pnpm is also a root devDependency, so turbo (which looks pnpm up on PATH) and the
// tools find it without a global install.
const bin = path.join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
process.exit(run(path.join(bin, 'tsx'), [commands[command], ...process.argv.slice(3)], { env }));
