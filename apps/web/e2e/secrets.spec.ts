import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { seedAgentWithListing, seedOriginalPhoto } from '@staging/stack/e2e-fixtures';
import { E2E_SECRET_NAMES } from '@staging/stack/e2e-secrets';
import { expect, secrets, signInQuickly, stack, test } from './support/fixtures';

const buildDir = path.resolve(import.meta.dirname, '../.next');

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    // The compiler cache is not shipped; everything else of the build output is.
    if (name === 'cache' && dir === buildDir) continue;
    if (statSync(full).isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

function leakedSecrets(text: string): string[] {
  return E2E_SECRET_NAMES.filter((name) => text.includes(secrets[name]));
}

test('the build output contains none of the secrets it was built with', () => {
  // e2e-run.ts builds with every secret of this run in the environment, the provider token included.
  const leaks: string[] = [];
  let scanned = 0;
  for (const file of filesUnder(buildDir)) {
    const found = leakedSecrets(readFileSync(file).toString('latin1'));
    scanned += 1;
    if (found.length > 0) leaks.push(`${path.relative(buildDir, file)}: ${found.join(', ')}`);
  }
  expect(scanned).toBeGreaterThan(50);
  expect(leaks).toEqual([]);
});

test('no page or script the browser receives carries a secret', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await seedOriginalPhoto(data, { propertyId, isMain: true });
  const bodies = new Map<string, string>();
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (/text|javascript|json|css/.test(type)) bodies.set(response.url(), await response.text().catch(() => ''));
  });
  await page.goto('/sign-in');
  await page.goto(`/listings/${propertyId}`);
  await page.goto('/search');
  await signInQuickly(page, agent);
  for (const path of ['/properties', `/properties/${propertyId}`, `/properties/${propertyId}/inventory`, '/review']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  // The disabled instance renders the kill-switch state from its server config: still no secret.
  await signInQuickly(page, agent, stack.webDisabledUrl);
  await page.goto(`${stack.webDisabledUrl}/properties/${propertyId}`);
  await page.waitForLoadState('networkidle');

  expect(bodies.size).toBeGreaterThan(10);
  expect([...bodies.keys()].some((url) => url.includes('/_next/static/'))).toBe(true);
  const leaks = [...bodies].flatMap(([url, body]) => leakedSecrets(body).map((name) => `${name} in ${url}`));
  expect(leaks).toEqual([]);
});
