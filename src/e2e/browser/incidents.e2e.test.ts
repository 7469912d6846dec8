/**
 * "What changed" on the Stories page in chromium, against a running all-in-one fed through the
 * OpenTelemetry SDK with an hour of normal traffic and then an outage of one service: that service
 * is the first suspect, the outage's story group is new, and the chronic error is folded away.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { screenshot } from '../../testing/browser.js';
import { FAST_STORIES_ENV } from './scenario.js';
import { CHRONIC_FAULT, incidentNamesFor, PAYMENTS_FAULT, sendIncident, waitForIncidentStories } from './incident-scenario.js';
import { expectEventually, scriptErrors, startBrowserApp, tableRows, type BrowserApp, type DomElement } from './support.js';

const names = incidentNamesFor(randomBytes(3).toString('hex'));
let app: BrowserApp;

before(async () => {
  app = await startBrowserApp('incidents', FAST_STORIES_ENV);
  await waitForIncidentStories(app.svc, names, await sendIncident(app.svc, names));
});

after(async () => {
  await app?.close();
});

describe('What changed in the browser', () => {
  test('the failing service is the first suspect, its new group in view, the chronic one folded', async () => {
    const page = await app.page();
    await page.goto('/');
    const panel = page.getByRole('region', { name: 'What changed' });
    assert.equal(await panel.locator('.window-note').textContent(), 'In the last 15 minutes, against the hour before.');
    await panel.locator('.suspects, .calm').first().waitFor();
    assert.equal(await panel.locator('.suspects > li').first().locator('.suspect-service').textContent(), names.payments, 'the first suspect');
    assert.match((await panel.locator('.incident-summary').textContent()) ?? '', new RegExp(names.payments));
    const evidence = await panel.locator('.suspects > li').first().locator('.evidence li').allInnerTexts();
    assert.ok(evidence.length > 0 && evidence.every((line) => / → /.test(line)), `evidence bullets with before → after: ${JSON.stringify(evidence)}`);

    const news = await tableRows(panel.getByRole('table', { name: 'New and rising story groups' }));
    const outage = news.find((cells) => cells[2]?.includes(PAYMENTS_FAULT));
    assert.ok(outage !== undefined, `the outage's group among the new ones: ${JSON.stringify(news)}`);
    assert.equal(outage[0], 'new');
    assert.ok(
      news.every((cells) => !(cells[2] ?? '').includes(CHRONIC_FAULT)),
      'the chronic group is not listed as news',
    );

    const fold = panel.locator('details.chronic-fold');
    assert.match((await fold.locator('summary').textContent()) ?? '', /^1 chronic group \(as often as in the hour before\)/);
    assert.equal(await fold.evaluate((details: DomElement) => details.getAttribute('open')), null, 'folded');
    const chronicRow = fold.locator('tbody tr', { hasText: CHRONIC_FAULT });
    assert.equal(await chronicRow.isVisible(), false, 'hidden while folded');
    await fold.locator('summary').click();
    await chronicRow.waitFor({ state: 'visible' });
    assert.equal((await chronicRow.locator('td').first().textContent())?.trim(), 'chronic');
    await screenshot(page, 'what-changed');
    // Unfolded, at the narrowest width the app supports, the panel does not make the page scroll sideways.
    await page.setViewportSize({ width: 800, height: 900 });
    const extraPx = () =>
      page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    // The page lays itself out again after the resize: wait for that, not for a fixed time.
    await expectEventually('px wider than the viewport at 800 px', extraPx, 0);
    await page.close();
  });

  test('a story-group link narrows the page to the group; the suspect opens the map', async () => {
    const page = await app.page();
    await page.goto('/');
    const panel = page.getByRole('region', { name: 'What changed' });
    const news = panel.getByRole('table', { name: 'New and rising story groups' });
    await news.locator('tbody tr', { hasText: PAYMENTS_FAULT }).locator('td.num a').click();
    await page.waitForURL((url) => url.pathname === '/' && /^\d+$/.test(url.searchParams.get('group') ?? ''));
    const rows = async () => (await tableRows(page.locator('table.groups'))).map((cells) => cells[1]?.includes(PAYMENTS_FAULT) ?? false);
    await expectEventually('only the outage group in the table', rows, [true]);

    await page.goto('/');
    await panel.locator('.suspects > li').first().locator('.suspect-service').click();
    await page.waitForURL((url) => url.pathname === '/map' && url.searchParams.get('service') === names.payments);
    await page.close();
  });

  test('narrowed to a service whose traffic did not change, the panel says calmly that nothing did', async () => {
    const page = await app.page();
    await page.goto(`/?service=${names.inventory}`);
    const panel = page.getByRole('region', { name: 'What changed' });
    await panel.locator('.suspects, .calm').first().waitFor();
    assert.equal(await panel.locator('.calm').textContent(), 'Nothing changed beyond the usual in the last 15 minutes.');
    assert.equal(
      await panel.locator('.window-note').textContent(),
      `In the last 15 minutes, against the hour before; suspects: ${names.inventory} and what it calls.`,
    );
    assert.equal(await panel.locator('table, details').count(), 0, 'no group has its root cause in this service');
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
