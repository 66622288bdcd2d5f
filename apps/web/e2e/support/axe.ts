import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The axe violations of impact serious or critical (WCAG 2.1 A/AA) on `page`, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fails with the list of axe violations of impact serious or critical (WCAG 2.1 A/AA) on `page`. */
export async function expectNoSeriousViolations(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}
