import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Where CI keeps files after a run (`.ci-artifacts/` is git-ignored and collected by CI). */
export const SCREENSHOT_DIR = join(ROOT, '.ci-artifacts', 'screenshots');

/**
 * The design brief's flags for Debian's chromium: no sandbox (CI runs as root in a container), no
 * GPU, and nothing that phones home or updates itself during a run.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The system chromium (apt's), never a browser downloaded by Playwright; SVC_CHROMIUM overrides it. */
export function chromiumPath(): string {
  return process.env.SVC_CHROMIUM || '/usr/bin/chromium';
}

/**
 * Launches chromium headless. Playwright's `launch` gives the process a fresh temporary
 * `--user-data-dir` of its own and deletes it on close, so no profile state leaks between runs.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath))
    throw new Error(`no chromium at ${executablePath}: install Debian's (apt-get install -y chromium) or set SVC_CHROMIUM to its path`);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh context (own cache and storage) whose pages fail fast: a page error or a failed
 * console message is kept so a test can show it next to a failed assertion.
 */
export async function newAppContext(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, timezoneId: 'UTC', locale: 'en-GB' });
  // Waits for page content are conditions, not sleeps; 15 s covers a slow CI machine under load.
  context.setDefaultTimeout(15_000);
  const problems: string[] = [];
  context.on('page', (page) => watchPage(page, problems));
  return { context, problems };
}

function watchPage(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
}

/** Writes a full-page screenshot of `page` to `.ci-artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
