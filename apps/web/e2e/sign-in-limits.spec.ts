import { expect, postSignIn, test } from './support/fixtures';
import { seedAgentWithListing } from '@staging/stack/e2e-fixtures';

test.describe('sign-in limits', () => {
  test('20 wrong passwords from one address never lock the agent out from another', async ({ page, data }) => {
    const { agent } = await seedAgentWithListing(data);
    const attacker = '203.0.113.66';
    const wrong = { email: agent.email, password: 'guessing-not-the-password', next: '/properties' };
    const answers: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const response = await postSignIn(page, wrong, attacker);
      expect(response.status()).toBe(303);
      answers.push(new URL(response.headers().location ?? '', 'http://x').searchParams.get('error') ?? '');
    }
    // The attacker's address is refused for this account once it has failed ten times…
    expect(answers.slice(0, 10)).toEqual(Array(10).fill('invalid'));
    expect(answers.slice(10)).toEqual(Array(10).fill('throttled'));

    // The throttled form tells the visitor why and for how long, not "wrong password".
    const throttled = await postSignIn(page, wrong, attacker);
    await page.goto(throttled.headers().location ?? '/sign-in');
    await expect(page.locator('#sign-in-error')).toContainText('Too many sign-in attempts');

    // …while the agent, from their own address, signs in at once.
    const agentAnswer = await postSignIn(page, { ...wrong, password: agent.password }, '203.0.113.77');
    expect(agentAnswer.status()).toBe(303);
    expect(agentAnswer.headers().location).toBe('/properties');
    await page.goto('/properties');
    await expect(page).toHaveURL(/\/properties$/);
  });
});
