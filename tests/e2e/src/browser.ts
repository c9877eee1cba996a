import { existsSync } from 'node:fs';

import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's chromium, which `scripts/test.sh` installs when missing (Playwright's own browser download
 * cannot be reached here); CHROMIUM_PATH names another.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no browser at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium; scripts/test.sh does it when it runs as root)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** A tab of the console at `width` px, its page errors collected. */
export async function consoleTab(
  browser: Browser,
  width: number,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

/** Whether anything of the page is wider than the viewport (a page that needs sideways scrolling). */
export async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth + 1');
}
