/**
 * Stories pages in chromium against a running all-in-one fed through the OpenTelemetry SDK: the
 * groups listed with their values, the kind and service filters in the URL, back and forward,
 * and the way from a group to its story and on to the trace.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { screenshot } from '../../testing/browser.js';
import { FAST_STORIES_ENV, namesFor, sendFailures, sendSlowStory, type Failures } from './scenario.js';
import { expectEventually, scriptErrors, startBrowserApp, tableRows, waitForQuery, type BrowserApp, type DomElement } from './support.js';

const names = namesFor(randomBytes(3).toString('hex'));
let app: BrowserApp;
let failures: Failures;
let slowId: string;

before(async () => {
  app = await startBrowserApp('stories', FAST_STORIES_ENV);
  failures = await sendFailures(app.svc, names);
  slowId = await sendSlowStory(app.svc, names.catalog);
});

after(async () => {
  await app?.close();
});

/** The groups table as [kind, summary, root cause, endpoint, stories]; the slow summary's p99 varies, so only its shape is kept. */
async function groupRows(page: Page): Promise<string[][]> {
  const rows = await tableRows(page.locator('table.groups'));
  return rows.map((cells) => [cells[0], cells[1].replace(/against a p99 of [\d.]+ ms/, 'against a p99 of <p99>'), cells[2], cells[3], cells[4]]);
}

/** The parts of the browser's canvas API that `barColours` uses (the server's TS config has no DOM types). */
interface ChartCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/** Whether the stories chart's canvas shows pixels of the error and of the slow bar colour (the CSS variables it draws with). */
async function barColours(page: Page): Promise<{ error: boolean; slow: boolean }> {
  return page.locator('.overview canvas').evaluate((canvas: ChartCanvas) => {
    const style = (globalThis as unknown as { getComputedStyle(element: unknown): { getPropertyValue(name: string): string } }).getComputedStyle(canvas);
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const has = (name: string) => {
      const hex = style.getPropertyValue(name).trim();
      const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
      for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) return true;
      return false;
    };
    return { error: has('--error'), slow: has('--slow') };
  });
}

const checkoutRow = () => ['error', failures.checkoutSummary, `${names.payments} db query`, `${names.frontend} GET /checkout`, '2'];
const reserveRow = () => ['error', failures.reserveSummary, `${names.inventory} reserve stock`, `${names.frontend} POST /reserve`, '1'];
const slowRow = () => [
  'slow',
  `GET /items (${names.catalog}) took 800 ms against a p99 of <p99>; ${names.catalog} "SELECT items" held 690 ms of the critical path`,
  `${names.catalog} SELECT items`,
  `${names.catalog} GET /items`,
  '1',
];

describe('Stories in the browser', () => {
  test('/ lists every group with kind, summary, root cause, endpoint and count, most stories first', async () => {
    const page = await app.page();
    await page.goto('/');
    // Groups with one story each tie; the server's order among them is not part of the contract.
    const read = async () => {
      const rows = await groupRows(page);
      return rows.length === 0 ? rows : [rows[0], ...rows.slice(1).sort((a, b) => a[1].localeCompare(b[1]))];
    };
    await expectEventually('story groups', read, [checkoutRow(), ...[reserveRow(), slowRow()].sort((a, b) => a[1].localeCompare(b[1]))]);
    const figures = async () =>
      (
        await page
          .locator('.figures .figure')
          .evaluateAll((items: DomElement[]) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]))
      ).slice(0, 2);
    await expectEventually('the overview figures', figures, [
      ['Error stories', '3'],
      ['Slow stories', '1'],
    ]);
    await screenshot(page, 'stories');
    await page.close();
  });

  test("the stories chart draws the newest minute's error and slow bars, also with only the slow kind", async () => {
    // All stories were sent just now, so both bars sit in the last bucket: the slow bar right of its point.
    const page = await app.page();
    await page.goto('/');
    await expectEventually('error and slow bars', () => barColours(page), { error: true, slow: true });
    await page.goto('/?kind=slow');
    await expectEventually('the slow bar alone', () => barColours(page), { error: false, slow: true });
    await page.close();
  });

  test('the kind and service filters change the URL and the groups; back and forward restore them', async () => {
    const page = await app.page();
    await page.goto('/');
    await expectEventually('all groups', async () => (await groupRows(page)).length, 3);

    await page.selectOption('#kind', 'slow');
    await waitForQuery(page, { kind: 'slow' }, '/');
    await expectEventually('slow groups', () => groupRows(page), [slowRow()]);

    await page.selectOption('#kind', 'error');
    await waitForQuery(page, { kind: 'error' }, '/');
    const errorRows = [checkoutRow(), reserveRow()];
    await expectEventually('error groups', () => groupRows(page), errorRows);

    await page.getByLabel('Root-cause service').fill(names.inventory);
    await waitForQuery(page, { kind: 'error', service: names.inventory }, '/');
    await expectEventually('error groups of inventory', () => groupRows(page), [reserveRow()]);
    await screenshot(page, 'stories-filtered');

    await page.goBack();
    await waitForQuery(page, { kind: 'error', service: null }, '/');
    await expectEventually('back: error groups again', () => groupRows(page), errorRows);
    assert.equal(await page.getByLabel('Root-cause service').inputValue(), '', 'the field follows the URL');

    await page.goBack();
    await waitForQuery(page, { kind: 'slow' }, '/');
    await expectEventually('back: slow groups again', () => groupRows(page), [slowRow()]);
    assert.equal(await page.locator('#kind').inputValue(), 'slow');

    await page.goForward();
    await page.goForward();
    await waitForQuery(page, { kind: 'error', service: names.inventory }, '/');
    await expectEventually('forward: inventory again', () => groupRows(page), [reserveRow()]);
    assert.equal(await page.getByLabel('Root-cause service').inputValue(), names.inventory);
    await page.close();
  });

  test("a group's count filters the page to that group (in the URL) and lists its stories", async () => {
    const page = await app.page();
    await page.goto('/');
    await page.locator('table.groups tr', { hasText: failures.checkoutSummary }).getByRole('button', { name: '2' }).click();
    await page.waitForURL((url) => url.pathname === '/' && /^\d+$/.test(url.searchParams.get('group') ?? ''));
    await expectEventually('only the group', () => groupRows(page), [checkoutRow()]);
    const examples = page.getByRole('region', { name: 'Stories of this group' }).locator('table');
    await expectEventually("the group's stories, newest first", async () => (await tableRows(examples)).map((cells) => [cells[1], cells[3]]), [
      [failures.checkoutSummary, `${failures.checkoutIds[1].slice(0, 12)}…`],
      [failures.checkoutSummary, `${failures.checkoutIds[0].slice(0, 12)}…`],
    ]);
    await page.getByRole('button', { name: 'Clear the group filter' }).click();
    await waitForQuery(page, { group: null }, '/');
    await expectEventually('all groups again', async () => (await groupRows(page)).length, 3);
    await page.close();
  });

  test('a group opens its newest story (summary, root cause, path) and the story opens its trace', async () => {
    const page = await app.page();
    await page.goto('/');
    await page.locator('table.groups').getByRole('link', { name: failures.checkoutSummary }).click();
    const storyId = failures.checkoutIds[1];
    await page.waitForURL((url) => url.pathname === `/stories/${storyId}`);

    assert.equal(await page.locator('h1.summary-sentence').textContent(), failures.checkoutSummary);
    const facts = await page
      .locator('.rc-card dl.facts')
      .evaluate((dl: DomElement) => Array.from(dl.querySelectorAll('dt'), (dt) => [dt.textContent ?? '', dt.nextElementSibling?.innerText.trim() ?? '']));
    assert.deepEqual(facts, [
      ['Service', names.payments],
      ['Span', 'db query (internal)'],
      ['Message', 'card declined 4242'],
    ]);
    assert.deepEqual(await page.locator('ol.service-path li').allInnerTexts(), [names.frontend, names.cart, names.payments]);
    assert.deepEqual(await page.locator('ul.also-failed li').allInnerTexts(), [`${names.cart} cache set: cache unavailable`]);
    const examples = page.getByRole('region', { name: 'Other stories of this group' }).locator('table');
    await expectEventually("the group's other story", async () => (await tableRows(examples)).map((cells) => cells[1]), [
      `${failures.checkoutSummary} (this story)`,
      failures.checkoutSummary,
    ]);
    await screenshot(page, 'story');

    await page.getByRole('link', { name: 'Open the trace' }).click();
    await page.waitForURL((url) => url.pathname === `/traces/${storyId}` && url.searchParams.get('span') !== null);
    await page.locator('.wf-row').first().waitFor();
    assert.deepEqual(await page.locator('.wf-row .wf-span-name').allTextContents(), failures.checkoutSpanNames);
    assert.equal(await page.locator('#span-title').textContent(), 'db query', 'the root-cause span is selected');
    await page.close();
  });

  test('a slow story shows its baseline diff', async () => {
    const page = await app.page();
    await page.goto(`/stories/${slowId}`);
    await page.locator('h1.summary-sentence').waitFor();
    assert.match((await page.locator('h1.summary-sentence').textContent()) ?? '', new RegExp(`^GET /items \\(${names.catalog}\\) took 800 ms`));
    const slower = page.getByRole('region', { name: 'Against the baseline' }).locator('li');
    assert.deepEqual((await slower.locator('.mono').allTextContents()).sort(), [`${names.catalog}: GET /items`, `${names.catalog}: SELECT items`]);
    await screenshot(page, 'story-slow');
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
