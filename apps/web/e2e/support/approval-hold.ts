import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** How long Approve waits for an Undo (APPROVAL_HOLD_MS in the review queue). */
export const APPROVAL_HOLD_MS = 5_000;

/** What the held approval says, in each language. */
export const HOLD_WORDS = {
  en: { approvingIn: /^Approving in 5 s: /, undo: /^Undo\b/ },
  es: { approvingIn: /^Se aprobará en 5 s: /, undo: /^Deshacer\b/ },
} as const;

/**
 * Stops the page's (installed) clock: no timer fires until the test moves it, so what the test
 * checks in between cannot race a lapsing hold. The clock jumps a minute ahead first (it cannot
 * stop in its past, and the page's time runs on while the command travels on a busy machine);
 * the page's timers due in that minute fire once, as after a sleeping laptop.
 */
export async function freezeClock(page: Page): Promise<void> {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 60_000));
}

/**
 * Lets the held approval that Approve just started lapse at once, on a page whose clock was
 * installed before it loaded (`page.clock.install()`).
 */
export async function letApprovalLapse(page: Page): Promise<void> {
  await expect(page.getByTestId('approval-hold')).not.toHaveCount(0);
  await page.clock.fastForward(APPROVAL_HOLD_MS);
}
