import { seedAgentWithListing } from '@staging/stack/e2e-fixtures';
import { expect, postSignIn, signInQuickly, stack, test } from './support/fixtures';

test.describe('a sign-in target outside ASCII', () => {
  test('signed in, /sign-in?next=/日 sends the agent on, percent-encoded, instead of a 500', async ({ page, data }) => {
    const { agent } = await seedAgentWithListing(data);
    await signInQuickly(page, agent);
    const answer = await page.request.get('/sign-in?next=%2F%E6%97%A5', { maxRedirects: 0 });
    expect(answer.status()).toBeLessThan(400);
    expect(answer.headers().location).toMatch(/\/%E6%97%A5$/);
  });

  test('signing in with next=/日 sets the session cookie and goes there: no session without its cookie', async ({ page, data }) => {
    const { agent } = await seedAgentWithListing(data);
    const sessionsBefore = await data.db.session.count({ where: { userId: agent.id } });
    const answer = await postSignIn(page, { email: agent.email, password: agent.password, next: '/日' }, '198.51.100.251');
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('/%E6%97%A5');
    expect(answer.headers()['set-cookie']).toMatch(/^sid=/);
    expect(await data.db.session.count({ where: { userId: agent.id } })).toBe(sessionsBefore + 1);
  });

  test('the language switch posted from such a sign-in page goes back to the sign-in page, never to a header it cannot write', async ({ page }) => {
    const answer = await page.request.post('/auth/locale', {
      form: { locale: 'es', next: '/sign-in?next=/日' },
      headers: { origin: stack.webUrl },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('/search');
  });
});

test("live streams through the web app: private, keyed by cookie, and the user's 11th is a 429 before it opens", async ({ page, data }) => {
  const { agent } = await seedAgentWithListing(data);
  await signInQuickly(page, agent);
  const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
  const controllers: AbortController[] = [];
  const open = async () => {
    const controller = new AbortController();
    controllers.push(controller);
    return fetch(`${stack.webUrl}/api/trpc/ai.stagingEvents`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  };
  try {
    const first = await open();
    expect([first.status, first.headers.get('cache-control')]).toEqual([200, 'private, no-store, no-transform']);
    // Next adds the headers its router varies on; Cookie must be among them.
    expect(first.headers.get('vary')?.split(/,\s*/)).toContain('Cookie');
    for (let i = 1; i < 10; i += 1) expect((await open()).status).toBe(200);
    const refused = await open();
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
  } finally {
    for (const controller of controllers) controller.abort();
  }
});

test('the spend page says today’s paid attempts are the whole account’s, in English and Spanish', async ({ browser, data }) => {
  const { agent } = await seedAgentWithListing(data);
  for (const [locale, wording] of [
    // Whether or not the day's cap is reached already, the figure is named as the account's.
    ['en-US', /^Today \(UTC day\), for the whole account \(every agent\): |^The account’s limit of .* \(every agent counts\)/],
    ['es-ES', /^Hoy \(día UTC\), en toda la cuenta \(todos los agentes\): |^Se alcanzó el límite de hoy de la cuenta, .* \(cuentan todos los agentes\)/],
  ] as const) {
    const context = await browser.newContext({ baseURL: stack.webUrl, locale });
    const page = await context.newPage();
    await signInQuickly(page, agent);
    await page.goto('/spend');
    await expect(page.getByTestId('spend-today')).toHaveText(wording);
    await context.close();
  }
});
