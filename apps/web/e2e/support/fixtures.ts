import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { openE2eData, type E2eData } from '@staging/stack/e2e-fixtures';
import type { E2eSecrets, E2eStackInfo } from '@staging/stack/e2e-types';

function readJsonEnv<T>(name: string): T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    throw new Error(`${name} is not set: run the browser tests with \`pnpm --filter @staging/web test\` (tools/stack/src/e2e-run.ts).`);
  }
  return JSON.parse(raw) as T;
}

export const stack = readJsonEnv<E2eStackInfo>('E2E_STACK');
export const secrets = readJsonEnv<E2eSecrets>('E2E_SECRETS');

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');

/** The desktop and phone widths the dashboard is checked at. */
/** Browser context options of a desktop and of a touch phone, for specs that run on both. */
export const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;
export type Device = keyof typeof DEVICES;

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
] as const;

export interface Credentials {
  email: string;
  password: string;
}

export const test = base.extend<object, { data: E2eData }>({
  data: [
    // Playwright reads a fixture's dependencies from this destructuring; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const data = openE2eData(stack, secrets.S3_SECRET_ACCESS_KEY);
      await use(data);
      await data.close();
    },
    { scope: 'worker' },
  ],
});

export { expect };

let quickSignIns = 0;

/**
 * Posts the sign-in form as a browser at `clientIp` would reach the web app through a proxy
 * (X-Forwarded-For, read as in production: docs/decisions/api.md "Login rate limits").
 */
export function postSignIn(page: Page, form: Record<string, string>, clientIp: string, baseURL: string = stack.webUrl) {
  return page.request.post(`${baseURL}/auth/sign-in`, {
    form,
    headers: { 'x-forwarded-for': clientIp },
    maxRedirects: 0,
  });
}

/** Signs in through the same form post the page uses, without rendering the page (fast setup). */
export async function signInQuickly(page: Page, user: Credentials, baseURL: string = stack.webUrl): Promise<void> {
  // Each setup sign-in comes from an address of its own (TEST-NET-2), as different agents would:
  // the per-address login limit is for attackers, not for a suite that signs in fifty times.
  quickSignIns += 1;
  const clientIp = `198.51.100.${quickSignIns % 250}`;
  const post = () =>
    postSignIn(page, { email: user.email, password: user.password, next: '/properties' }, clientIp, baseURL);
  // A keep-alive socket the server closes while it sits idle (seeding takes a while on a busy
  // machine) fails the next request with ECONNRESET, a race of any HTTP client; the form post is
  // safe to send again, so one retry on exactly that error.
  const response = await post().catch((error: unknown) => {
    if (String(error).includes('ECONNRESET')) return post();
    throw error;
  });
  expect(response.status(), 'sign-in answers with a redirect').toBe(303);
  expect(response.headers().location).toBe('/properties');
}

/**
 * A screenshot kept as a test artifact under <repo>/test-results/screenshots: the full page by
 * default, with lazy images loaded first so the artifact shows what a visitor sees.
 */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.querySelectorAll('img')];
    for (const image of images) image.loading = 'eager';
    // decode() settles once the image is loaded and decoded (or failed); capped so a broken image
    // cannot hold the test.
    const decoded = Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    await Promise.race([decoded, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? true });
}
