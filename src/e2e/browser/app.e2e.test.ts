/**
 * The Pipeline page and the app's own not-found page in chromium against a running all-in-one
 * that has stored spans and logs exported by the OpenTelemetry SDK.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { screenshot } from '../../testing/browser.js';
import { getJson } from '../../testing/http.js';
import { buildSampleLogs, buildSampleTrace, exportLogs, logExporter } from '../../testing/otel.js';
import { sendSpans, until } from '../../testing/sdk-trace.js';
import { expectEventually, scriptErrors, startBrowserApp, tableRows, type BrowserApp } from './support.js';

const tag = randomBytes(3).toString('hex');
let app: BrowserApp;

interface LagRow {
  group: string;
  topic: string;
  committed: number;
  end: number;
  lag: number;
}

before(async () => {
  app = await startBrowserApp('app', { SVC__WRITER__MAX_AGE_MS: '200' });
  const sample = buildSampleTrace(`shop-${tag}`, Date.now(), tag);
  await sendSpans(app.svc, sample.spans);
  const exporter = logExporter('http-protobuf', app.svc, false);
  await exportLogs(exporter, buildSampleLogs(`shop-${tag}`, Date.now(), sample.spans[0], tag));
  await exporter.shutdown();
  // The export was acknowledged once stored; the writer's commit shows in the lag read (shared for 5 s).
  await until('the writer to commit what it stored', async () => {
    const rows = (await getJson(`${app.svc.apiUrl}/api/v1/pipeline/lag`)).body as LagRow[];
    const writer = rows.filter((row) => row.group === 'svc-writer');
    return writer.length > 0 && writer.every((row) => row.committed > 0 && row.lag === 0) ? true : undefined;
  });
});

after(async () => {
  await app?.close();
});

describe('Pipeline and not-found in the browser', () => {
  test('/pipeline lists every consumer group with its topic and the writer caught up, and a chart per component', async () => {
    const page = await app.page();
    await page.goto('/pipeline');
    const lag = page.locator('section', { has: page.locator('#lag') }).locator('table');
    await lag.waitFor();
    const rows = await tableRows(lag);
    assert.deepEqual(
      rows.map((cells) => [cells[0], cells[1]]),
      [
        ['svc-assembler', 'svc.signals'],
        ['svc-logminer', 'svc.logs'],
        ['svc-notifier', 'svc.alerts'],
        ['svc-writer', 'svc.signals'],
      ],
    );
    const writer = rows.find((cells) => cells[0] === 'svc-writer')!;
    assert.ok(Number(writer[2].replace(/\D/g, '')) > 0, `writer committed ${writer[2]}`);
    assert.equal(writer[2], writer[3], 'committed equals end');
    assert.equal(writer[4], '0');
    const sections = (await page.locator('section.panel h2').allTextContents()).map((title) => title.toLowerCase());
    for (const component of ['ingest', 'writer', 'assembler', 'logminer', 'notifier', 'api'])
      assert.ok(sections.includes(component), `a ${component} section in ${sections.join(', ')}`);
    // Every chart answers (a chart or its empty note), none with an error box.
    await expectEventually('charts loaded', () => page.locator('.page p.loading').count(), 0);
    assert.equal(
      await page.locator('.error-box').count(),
      0,
      await page
        .locator('.error-box')
        .allTextContents()
        .then((texts) => texts.join('\n')),
    );
    await screenshot(page, 'pipeline');
    await page.close();
  });

  test('an unknown client path gets the app, which shows its not-found page', async () => {
    const page = await app.page();
    const path = `/no-such-page-${tag}`;
    const response = await page.goto(path);
    assert.equal(response?.status(), 200);
    await page.locator('h1').waitFor();
    assert.equal(await page.locator('h1').textContent(), 'Page not found');
    assert.equal(await page.locator('.not-found code').textContent(), path);
    assert.equal(await page.title(), 'Page not found · svc');
    await screenshot(page, 'not-found');
    await page.locator('.not-found').getByRole('link', { name: 'stories' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Stories' }).waitFor();
    await page.close();
  });

  test("a trace id nobody sent shows the trace page's empty state", async () => {
    const page = await app.page();
    const id = randomBytes(16).toString('hex');
    await page.goto(`/traces/${id}`);
    await page.getByText('No spans or logs with this trace id.').waitFor();
    assert.equal(await page.locator('h1').textContent(), `Trace ${id}`);
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
