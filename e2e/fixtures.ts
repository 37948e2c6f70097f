import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { checkHelpButton, watchHelpButton } from './help-overlap.js';
import { ledgerSettled, watchBrowser, watchContext } from './hygiene-ledger.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core run inside the page (injected through the debugging protocol, so the app's CSP
 * stays as it is). Serious and critical violations fail the test.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
}

/**
 * Saves a screenshot under test-results/screens for a person to look at (412×823 as `name`,
 * other sizes as `name-WxH`), and checks the help button there.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  const suffix = size && (size.width !== 412 || size.height !== 823) ? `-${size.width}x${size.height}` : '';
  // From the top, as the screen opens: a full-page capture draws fixed elements (the help band)
  // where they are on screen, which is mid-page once scrolled. The scroll is put back after.
  // (A page at the top is left alone: with JavaScript off, no animation frame ever comes.)
  const scrolled = await page.evaluate(() => window.scrollY);
  if (scrolled > 0)
    await page.evaluate(async () => {
      window.scrollTo({ top: 0, behavior: 'instant' });
      // Two frames: what follows the scroll (the band's scroll-driven edge) is painted.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    });
  await page.screenshot({ path: `test-results/screens/${name}${suffix}.png`, fullPage: true });
  if (scrolled > 0) await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), scrolled);
  const covered = await checkHelpButton(page);
  expect(covered, covered.join('\n')).toEqual([]);
}

/**
 * Every test runs against the real server; any console error, page error, failed request or
 * request to another host fails it.
 */
/** Addresses of other hosts a test expects the page to reach (e.g. the WhatsApp link of a redirect). */
const expectedElsewhere = new WeakMap<Page, string[]>();

/** The page is meant to go to `prefix` (a full-page redirect out of the app); the test intercepts it. */
export function allowNavigationTo(page: Page, prefix: string): void {
  expectedElsewhere.set(page, [...(expectedElsewhere.get(page) ?? []), prefix]);
}

export const test = base.extend({
  // Suite 7 (hygiene): every secret a test sends or receives goes to the ledger, whichever context
  // carries it (the test's own, or one a test opens with browser.newContext).
  browser: [
    async ({ browser }, use) => {
      watchBrowser(browser);
      await use(browser);
    },
    { scope: 'worker' },
  ],
  context: async ({ context }, use) => {
    watchContext(context);
    await use(context);
    await ledgerSettled();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
  baseURL: async ({}, use, testInfo) => {
    // Each project has its server in the global setup (playwright.config.ts names it).
    const server = testInfo.project.metadata.server as 'do' | 'do-small' | 'mx' | 'mx-circulo' | 'staff';
    await use(
      {
        do: process.env.E2E_BASE_URL,
        'do-small': process.env.E2E_SMALL_BASE_URL,
        mx: process.env.E2E_MX_BASE_URL,
        'mx-circulo': process.env.E2E_MX_CIRCULO_BASE_URL,
        staff: process.env.E2E_STAFF_BASE_URL,
      }[server],
    );
  },
  page: async ({ page, baseURL }, use) => {
    const problems: string[] = [];
    const origin = new URL(baseURL!).origin;
    page.on('console', (message) => {
      // Chromium logs every 4xx answer; those are the API's documented answers (404 new user,
      // 400 wrong code…). 5xx answers are caught below.
      if (
        message.type() !== 'error' ||
        /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
      )
        return;
      problems.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? '';
      // A navigation cancels what the previous page was still loading; that is not a failure.
      if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${reason}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      const expected = (expectedElsewhere.get(page) ?? []).some((prefix) => url.startsWith(prefix));
      // blob: URLs are the page's own (the identity photos' previews).
      const own = url.startsWith(origin) || url.startsWith('data:') || url.startsWith(`blob:${origin}`);
      if (!own && !expected) problems.push(`request to another host: ${url}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 500) problems.push(`server error ${response.status()}: ${response.url()}`);
    });
    // Every screen the test shows: the floating help button covers no control (help-overlap.ts).
    const covered = new Set<string>();
    await watchHelpButton(page, (message) => void covered.add(message));
    await use(page);
    for (const message of await checkHelpButton(page)) covered.add(message);
    problems.push(...covered);
    expect(problems, problems.join('\n')).toEqual([]);
  },
});

export { expect };
