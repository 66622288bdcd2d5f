// Re-points the links Turbopack leaves in .next/node_modules at the runtime image's node_modules.
//
// For each server external package (pg, bullmq, @sentry/node, …) `next build` writes a link such as
// .next/node_modules/bullmq-a801221cda9ade04 -> ../../../../node_modules/.pnpm/bullmq@…/node_modules/bullmq,
// i.e. into the build stage's pnpm layout, which the runtime image does not have: the server then
// fails at the first request with "Cannot find module 'bullmq-a801221cda9ade04'". The runtime's
// node_modules comes from `pnpm deploy` with the hoisted linker, so each package is at
// node_modules/<name>; every link is rewritten to that, and the build fails if a package is missing.
//
//   node docker/relink-next-externals.mjs <app dir containing .next and node_modules>
import { lstatSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const appDir = path.resolve(process.argv[2] ?? '.');
const linksDir = path.join(appDir, '.next', 'node_modules');

function links(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const at = path.join(dir, name);
    if (lstatSync(at).isSymbolicLink()) return [at];
    return name.startsWith('@') ? links(at) : [];
  });
}

let missing = 0;
for (const link of links(linksDir)) {
  const target = readlinkSync(link);
  // The package name is what follows the last node_modules/ of the build-time target.
  const packageName = target.slice(target.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const runtimeTarget = path.join(appDir, 'node_modules', packageName);
  try {
    statSync(runtimeTarget);
  } catch {
    console.error(
      `relink-next-externals: ${packageName} (for ${path.relative(appDir, link)}) is not in node_modules`,
    );
    missing += 1;
    continue;
  }
  rmSync(link);
  symlinkSync(path.relative(path.dirname(link), runtimeTarget), link);
  console.log(`${path.relative(appDir, link)} -> node_modules/${packageName}`);
}
if (missing > 0) process.exit(1);
