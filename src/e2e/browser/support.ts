/**
 * What every browser test file shares: one all-in-one and one chromium per file, a fresh context
 * per file, and assertions that wait for the page to reach a value instead of sleeping.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../../testing/all-in-one.js';
import { launchChromium, newAppContext, screenshot } from '../../testing/browser.js';

export interface BrowserApp {
  svc: RunningAllInOne;
  browser: Browser;
  context: BrowserContext;
  /** Uncaught script errors and console errors of every page so far. */
  problems: string[];
  /** A new tab of the app. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts `svc all-in-one` on a temp data dir and chromium beside it (in parallel: both take a
 * while). `name` prefixes the screenshots of pages still open at close: tests close their pages
 * when they pass, so those are the pages of failed tests, kept for CI.
 */
export async function startBrowserApp(name: string, env: Record<string, string>): Promise<BrowserApp> {
  const data = tempDataDir('svc-e2e-browser-');
  const [started, launched] = await Promise.allSettled([startAllInOne({ dataDir: data.dir, env }), launchChromium()]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    // Whichever did start must not outlive the failed start-up (a running child keeps the test process alive).
    if (started.status === 'fulfilled') await started.value.stop();
    if (launched.status === 'fulfilled') await launched.value.close();
    data.cleanup();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const svc = started.value;
  const browser = launched.value;
  const { context, problems } = await newAppContext(browser, svc.apiUrl);
  return {
    svc,
    browser,
    context,
    problems,
    page: () => context.newPage(),
    async close() {
      const open = context.pages();
      for (const [index, page] of open.entries()) await screenshot(page, `failed-${name}-${index}`).catch(() => undefined);
      // Beside a failed test's assertion, what the browser saw (API errors answered to the page, script errors).
      if (open.length > 0 && problems.length > 0) console.log(`browser problems (${name}):\n${problems.join('\n')}`);
      await browser.close();
      await svc.stop();
      data.cleanup();
    },
  };
}

/** Uncaught exceptions only: a console error can be an expected 404 answer of the API. */
export function scriptErrors(app: BrowserApp): string[] {
  return app.problems.filter((problem) => problem.startsWith('page error'));
}

/**
 * Reads `read()` until it deep-equals `expected` (the page fetches and re-renders on its own
 * schedule), then asserts; on timeout the assertion shows the last value read.
 */
export async function expectEventually<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let actual = await read();
  while (!isDeepStrictEqual(actual, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    actual = await read();
  }
  assert.deepEqual(actual, expected, what);
}

/**
 * The few DOM members the in-page callbacks read. The project's tsconfig leaves out the DOM lib on
 * purpose (server code must not see `window`), so callbacks type their elements with this.
 */
export interface DomElement {
  textContent: string | null;
  innerText: string;
  nextElementSibling: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
}

/** The trimmed text of each cell of each body row of `table`, one array per row. */
export function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows: DomElement[]) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.innerText.replace(/\s+/g, ' ').trim())));
}

/** Waits for the URL's query string to hold `params` (and the path `pathname`, when given). */
export async function waitForQuery(page: Page, params: Record<string, string | null>, pathname?: string): Promise<void> {
  await page.waitForURL(
    (url) => (pathname === undefined || url.pathname === pathname) && Object.entries(params).every(([key, value]) => url.searchParams.get(key) === value),
  );
}
