/**
 * Traces, a trace's waterfall and the service map in chromium against a running all-in-one fed
 * through the OpenTelemetry SDK.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import type { Page } from 'playwright-core';
import { screenshot } from '../../testing/browser.js';
import { SdkTraces, sendSpans, until } from '../../testing/sdk-trace.js';
import { getJson } from '../../testing/http.js';
import { FAST_STORIES_ENV, namesFor, sendFailures, type Failures } from './scenario.js';
import { expectEventually, scriptErrors, startBrowserApp, tableRows, waitForQuery, type BrowserApp, type DomElement } from './support.js';

const names = namesFor(randomBytes(3).toString('hex'));
let app: BrowserApp;
/** A Grafana Explore URL as copied from the browser, its trace id replaced by the placeholder. */
const GRAFANA_TRACE_URL =
  'http://grafana.test:3000/explore?orgId=1&left=%7B%22datasource%22:%22svc%22,%22queries%22:%5B%7B%22refId%22:%22A%22,%22query%22:%22{trace_id}%22%7D%5D%7D';
let failures: Failures;

before(async () => {
  app = await startBrowserApp('traces', { ...FAST_STORIES_ENV, SVC__GRAFANA_TRACE_URL: GRAFANA_TRACE_URL });
  failures = await sendFailures(app.svc, names);
  // Three quiet traces of another service: no story, found only by search.
  const quiet = new SdkTraces();
  for (let i = 0; i < 3; i++) {
    const root = quiet.span(names.catalog, 'GET /items', { kind: SpanKind.SERVER, startMs: -600 - i * 50, endMs: -580 - i * 50 });
    quiet.span(names.catalog, 'SELECT items', { kind: SpanKind.CLIENT, parent: root, startMs: -595 - i * 50, endMs: -585 - i * 50 });
  }
  await sendSpans(app.svc, quiet.take());
  await until('the quiet traces in search', async () => {
    const response = await getJson(`${app.svc.apiUrl}/api/v1/traces/search?service=${names.catalog}`);
    return (response.body as unknown[]).length === 3 ? true : undefined;
  });
});

after(async () => {
  await app?.close();
});

/** Trace search rows as [endpoint, spans, result, story], sorted (rows of one run can share a start time). */
async function traceRows(page: Page): Promise<string[][]> {
  const rows = await tableRows(page.locator('table.data'));
  return rows.map((cells) => [cells[1], cells[3], cells[4], cells[5]]).sort((a, b) => a.join().localeCompare(b.join()));
}

const checkoutRow = () => [`${names.frontend} GET /checkout`, '8', 'error', 'error story'];
const reserveRow = () => [`${names.frontend} POST /reserve`, '4', 'error', 'error story'];
const quietRow = () => [`${names.catalog} GET /items`, '2', 'ok', '–'];
const sorted = (rows: string[][]) => rows.sort((a, b) => a.join().localeCompare(b.join()));

describe('Traces in the browser', () => {
  test('/traces lists the traces; "failing only" and the service filter change the URL and the results', async () => {
    const page = await app.page();
    await page.goto('/traces');
    await expectEventually('every trace', () => traceRows(page), sorted([checkoutRow(), checkoutRow(), reserveRow(), quietRow(), quietRow(), quietRow()]));
    await screenshot(page, 'traces');

    await page.getByLabel('failing only').check();
    await waitForQuery(page, { errors: '1' }, '/traces');
    await expectEventually('failing traces', () => traceRows(page), sorted([checkoutRow(), checkoutRow(), reserveRow()]));

    await page.getByLabel('Endpoint service').fill(names.catalog);
    await waitForQuery(page, { errors: '1', service: names.catalog }, '/traces');
    await page.getByText('No traces match these filters in this window.').waitFor();

    await page.getByLabel('failing only').uncheck();
    await waitForQuery(page, { errors: null, service: names.catalog }, '/traces');
    await expectEventually('catalog traces', () => traceRows(page), [quietRow(), quietRow(), quietRow()]);

    await page.goBack();
    await waitForQuery(page, { errors: '1', service: names.catalog }, '/traces');
    await page.getByText('No traces match these filters in this window.').waitFor();
    assert.equal(await page.getByLabel('failing only').isChecked(), true);
    await page.close();
  });

  test('/traces draws duration over time, failing traces in red, and a dot opens its trace', async () => {
    const page = await app.page();
    await page.goto('/traces?errors=1');
    await expectEventually('a dot per failing trace', () => page.locator('.scatter-plot .dot').count(), 3);
    assert.equal(await page.locator('.scatter-plot .dot-error').count(), 3);
    const href = await page.locator('.scatter-plot .dot').first().getAttribute('href');
    assert.match(href ?? '', /^\/traces\/[0-9a-f]{32}$/);
    await page.locator('.scatter-plot .dot').first().click();
    await page.waitForURL((url) => url.pathname === href);
    await page.locator('#trace-logs, .waterfall').first().waitFor();
    await page.close();
  });

  test('/traces/{id} draws the waterfall in tree order with errors marked, and a row opens its span', async () => {
    const page = await app.page();
    const traceId = failures.checkoutIds[0]!;
    await page.goto(`/traces/${traceId}`);
    await page.locator('.wf-row').first().waitFor();
    assert.equal(await page.locator('h1').textContent(), `${names.frontend} · GET /checkout`);
    const rows = await page
      .locator('.wf-row')
      .evaluateAll((items: DomElement[]) =>
        items.map((row) => [
          row.querySelector('.wf-service')?.textContent,
          row.querySelector('.wf-span-name')?.textContent,
          row.querySelector('.wf-error-mark') !== null,
        ]),
      );
    const service = [names.frontend, names.frontend, names.frontend, names.cart, names.cart, names.cart, names.payments, names.payments];
    // Every span of the failing chain has an error status; "load session" succeeded.
    assert.deepEqual(
      rows,
      failures.checkoutSpanNames.map((name, i) => [service[i], name, name !== 'load session']),
    );
    assert.match((await page.locator('.story-meta').textContent()) ?? '', /8 spans · 3 services · 7 error spans · 0 logs/);
    // One click into Grafana's Explore with the same trace (the setting's template, its id filled in).
    assert.equal(await page.getByRole('link', { name: 'Open in Grafana' }).getAttribute('href'), GRAFANA_TRACE_URL.replace('{trace_id}', traceId));

    await page.locator('.wf-row', { hasText: 'db query' }).click();
    await page.waitForURL((url) => url.searchParams.get('span') !== null);
    assert.equal(await page.locator('#span-title').textContent(), 'db query');
    const details = await page
      .locator('.span-details dl.facts')
      .evaluate((dl: DomElement) =>
        Object.fromEntries(Array.from(dl.querySelectorAll('dt'), (dt) => [dt.textContent ?? '', dt.nextElementSibling?.innerText.trim() ?? ''])),
      );
    assert.equal(details.Service, names.payments);
    assert.equal(details.Status, 'error: card declined 4242');
    await screenshot(page, 'trace');

    await page.getByRole('link', { name: 'Open its story' }).click();
    await page.waitForURL((url) => url.pathname === `/stories/${traceId}`);
    assert.equal(await page.locator('h1.summary-sentence').textContent(), failures.checkoutSummary);
    await page.close();
  });

  test('/map shows a node per service with its health and the calls between services', async () => {
    // The page reads the map once: wait until the API has the three calling pairs (the assembler
    // stores edges shortly after the traces close), then open it.
    await until('the edges in the service map', async () => {
      const response = await getJson(`${app.svc.apiUrl}/api/v1/service-map?since=1h`);
      assert.equal(response.status, 200);
      const edges = (response.body as { edges: { parent: string; child: string }[] }).edges;
      const ours = edges.filter((edge) => Object.values(names).includes(edge.parent));
      return ours.length >= 3 ? ours : undefined;
    });
    const page = await app.page();
    await page.goto('/map');
    const nodes = page.locator('g.map-node');
    // Edges are stored by the assembler beside the stories waited for; wait for the page to show them all.
    const health = async () => {
      const labels = await nodes.evaluateAll((items: DomElement[]) => items.map((node) => node.getAttribute('aria-label') ?? ''));
      return Object.fromEntries(labels.map((label) => /^(.*), health (\w+),/.exec(label)?.slice(1, 3) ?? [label, '?']).sort());
    };
    await expectEventually('a node per service with its health', health, {
      [names.cart]: 'error',
      [names.catalog]: 'ok',
      [names.frontend]: 'error',
      [names.inventory]: 'error',
      [names.payments]: 'error',
    });
    const edges = async () => (await page.locator('g.map-edge title').allTextContents()).map((title) => title.replace(/, average .*$/, '')).sort();
    await expectEventually(
      'an edge per calling pair with calls and errors',
      edges,
      [
        `${names.cart} → ${names.payments}: 2 calls, 2 errors (100 %)`,
        `${names.frontend} → ${names.cart}: 2 calls, 2 errors (100 %)`,
        `${names.frontend} → ${names.inventory}: 1 call, 1 error (100 %)`,
      ].sort(),
    );
    // Every rate on one map in one unit.
    const units = await nodes.evaluateAll((items: DomElement[]) =>
      items.map((node) => /health \w+, [^ ]+\/(\w+) ·/.exec(node.getAttribute('aria-label') ?? '')?.[1] ?? '?'),
    );
    assert.equal(new Set(units).size, 1, `rate units ${units.join(', ')}`);
    // Edge labels sit on opaque plates wider than their text, drawn after every line.
    const plates = await page.locator('svg[aria-label="Service map"]').evaluate((svg: DomElement) => {
      type Shape = DomElement & { getBBox(): { width: number }; tagName: string; className: { baseVal: string } };
      const shapes = Array.from(svg.querySelectorAll('path, rect.map-edge-plate, text.map-edge-label')) as unknown as Shape[];
      const lastPath = shapes.map((shape) => shape.tagName).lastIndexOf('path');
      const firstPlate = shapes.findIndex((shape) => shape.tagName === 'rect');
      const covered = Array.from(svg.querySelectorAll('text.map-edge-label') as unknown as ArrayLike<Shape>).every((text) => {
        const plate = (text as unknown as { previousElementSibling: Shape }).previousElementSibling;
        return plate.getBBox().width >= text.getBBox().width;
      });
      return { platesAfterLines: firstPlate > lastPath, covered, labels: svg.querySelectorAll('text.map-edge-label').length };
    });
    assert.deepEqual(plates, { platesAfterLines: true, covered: true, labels: 3 });
    await screenshot(page, 'map');

    await nodes.filter({ hasText: names.frontend }).click();
    await waitForQuery(page, { service: names.frontend }, '/map');
    // The service's RED panel: its three server spans (GET /checkout twice, POST /reserve) all failed.
    await page.getByText('3 calls, 3 errors (100 %) in the window.').waitFor();
    await screenshot(page, 'map-service');
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
