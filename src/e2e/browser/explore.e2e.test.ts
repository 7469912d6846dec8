/**
 * The logs explorer in chromium against a running all-in-one fed with logs built and exported by
 * the OpenTelemetry SDK: search, a list longer than one page that keeps only the visible rows in
 * the DOM, a row expanded to its attributes and followed to its trace, back/forward restoring the
 * query, a histogram drag zooming the window, the global search's link, and a template's recent
 * hits showing their text and opening the explorer filtered by the template.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { Page } from 'playwright-core';
import { screenshot } from '../../testing/browser.js';
import { getJson } from '../../testing/http.js';
import { exportLogs, hrAt, logExporter } from '../../testing/otel.js';
import { until } from '../../testing/sdk-trace.js';
import { expectEventually, scriptErrors, startBrowserApp, tableRows, waitForQuery, type BrowserApp, type DomElement } from './support.js';

const service = `shop-${randomBytes(3).toString('hex')}`;
const ERROR_BODY = 'payment gateway unreachable for order 4711';
/** More than one page (500) of plain lines, so the list pages by cursor as it scrolls. */
const PLAIN_LINES = 620;
let app: BrowserApp;
let traceId = '';
let spanId = '';

function sdkLogs(nowMs: number): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'deployment.environment': 'e2e' }),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger('svc-e2e-explore');
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }).getTracer('svc-e2e-explore');
  for (let i = 0; i < PLAIN_LINES; i++) {
    logger.emit({ body: `cart ${i} updated`, severityNumber: SeverityNumber.INFO, severityText: 'INFO', timestamp: hrAt(nowMs, -20 * 60_000 + i * 1000) });
  }
  const span = tracer.startSpan('POST /pay', { kind: SpanKind.SERVER });
  traceId = span.spanContext().traceId;
  spanId = span.spanContext().spanId;
  logger.emit({
    body: ERROR_BODY,
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    timestamp: hrAt(nowMs, -60_000),
    attributes: { 'payment.provider.endpoint_name': 'acme-pay', 'order.id': 4711 },
    context: trace.setSpan(ROOT_CONTEXT, span),
  });
  span.end();
  return memory.getFinishedLogRecords();
}

before(async () => {
  app = await startBrowserApp('explore', { SVC__LOGMINER__FLUSH_MS: '100', SVC__WRITER__MAX_AGE_MS: '200' });
  const exporter = logExporter('http-protobuf', app.svc, false);
  await exportLogs(exporter, sdkLogs(Date.now()));
  await exporter.shutdown();
  await until('every log stored', async () => {
    const series = await getJson(`${app.svc.apiUrl}/api/v1/logs/series?service=${service}`);
    return (series.body as { total: number }).total === PLAIN_LINES + 1 ? true : undefined;
  });
  await until('the error line mined', async () => {
    const found = await getJson(`${app.svc.apiUrl}/api/v1/logs/search?service=${service}&severity=error`);
    return (found.body as { logs: { template_id: string | null }[] }).logs[0]?.template_id ? true : undefined;
  });
});

after(async () => {
  await app?.close();
});

const listStatus = (page: Page) => page.locator('.list-status').innerText();
const domRows = (page: Page) => page.locator('.log-list [role="listitem"]').count();

describe('Logs explorer in the browser', () => {
  test('search, page by scrolling, expand, follow to the trace, and back/forward restore the query', async () => {
    const page = await app.page();
    await page.setViewportSize({ width: 1280, height: 900 });
    // A cold load asks for the rows and the counts once each: the page takes what was asked for
    // beside its code (the counts as soon as the rows have come) instead of asking again.
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/v1/logs/')) asked.push(path);
    });
    await page.goto(`/logs/explore?service=${service}`);
    await expectEventually('the first page', () => listStatus(page), '500 newest logs shown, more load as you scroll');
    await expectEventually('the histogram', () => page.locator('.log-histogram figcaption').count(), 1);
    assert.equal(
      await page
        .locator('.log-histogram figcaption')
        .innerText()
        .then((t) => t.startsWith(`${PLAIN_LINES + 1} logs over the window`)),
      true,
    );
    assert.deepEqual(asked, ['/api/v1/logs/search', '/api/v1/logs/series']);
    const drawn = await domRows(page);
    assert.ok(drawn > 10 && drawn < 100, `only the visible rows are in the DOM (${drawn})`);
    // The newest line is the error, 1 minute ago; then the plain lines, newest first.
    assert.equal(await page.locator('.log-list [role="listitem"] .log-text').first().innerText(), ERROR_BODY);

    // Scrolling to the end loads the next page by cursor: every line once.
    await page.locator('.log-list').evaluate((list: DomElement & { scrollTop: number; scrollHeight: number }) => {
      list.scrollTop = list.scrollHeight;
    });
    await expectEventually('every log', () => listStatus(page), `${PLAIN_LINES + 1} newest logs shown`);
    await page.locator('.log-list').evaluate((list: DomElement & { scrollTop: number; scrollHeight: number }) => {
      list.scrollTop = list.scrollHeight;
    });
    await expectEventually('the oldest line at the end', () => page.locator('.log-list [role="listitem"] .log-text').last().innerText(), 'cart 0 updated');
    assert.ok((await domRows(page)) < 100);

    // Text search: every word, any case.
    await page.getByLabel('Text (every word)').fill('GATEWAY order');
    await waitForQuery(page, { service, q: 'GATEWAY order' }, '/logs/explore');
    await expectEventually('one match', () => listStatus(page), '1 newest log shown');

    await page.locator('.log-row').first().click();
    await expectEventually('the row expanded', () => page.locator('.log-detail').count(), 1);
    const logId = new URL(page.url()).searchParams.get('log');
    assert.match(logId ?? '', /^\d+$/);
    const attributes = await page
      .locator('.log-detail table.kv')
      .first()
      .evaluate((table: DomElement) =>
        Array.from(table.querySelectorAll('tr'), (row) => [row.querySelector('th')?.textContent ?? '', row.querySelector('td')?.textContent ?? '']),
      );
    assert.deepEqual(attributes, [
      ['order.id', '4711'],
      ['payment.provider.endpoint_name', 'acme-pay'],
    ]);
    assert.equal(await page.locator('.log-detail').getByText('deployment.environment').count(), 1);
    assert.equal(
      await page
        .locator('.log-detail')
        .getByRole('link', { name: `Span ${spanId}` })
        .count(),
      1,
    );
    assert.equal(
      await page
        .locator('.log-detail')
        .getByRole('link', { name: /^Template: / })
        .count(),
      1,
    );
    await screenshot(page, 'logs-explore');

    await page
      .locator('.log-detail')
      .getByRole('link', { name: `Trace ${traceId.slice(0, 12)}…` })
      .click();
    await page.waitForURL((url) => url.pathname === `/traces/${traceId}`);
    await page.locator('#trace-logs').waitFor();

    // Back: the same search, the same row open.
    await page.goBack();
    await waitForQuery(page, { service, q: 'GATEWAY order', log: logId }, '/logs/explore');
    assert.equal(await page.getByLabel('Text (every word)').inputValue(), 'GATEWAY order');
    await expectEventually('the match again', () => listStatus(page), '1 newest log shown');
    await expectEventually('still expanded', () => page.locator('.log-detail .log-body').innerText(), ERROR_BODY);

    // Back again: before the text search; forward: the search again.
    await page.goBack();
    await waitForQuery(page, { service, q: null }, '/logs/explore');
    assert.equal(await page.getByLabel('Text (every word)').inputValue(), '');
    await expectEventually('the unfiltered list', () => listStatus(page), '500 newest logs shown, more load as you scroll');
    await page.goForward();
    await waitForQuery(page, { service, q: 'GATEWAY order' }, '/logs/explore');
    await expectEventually('the match after forward', () => listStatus(page), '1 newest log shown');
    await page.close();
  });

  test('a drag over the histogram zooms the window; severity narrows the list', async () => {
    const page = await app.page();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/logs/explore?service=${service}&since=1h`);
    await expectEventually('the first page', () => listStatus(page), '500 newest logs shown, more load as you scroll');
    const box = await page.locator('.histogram-plot').boundingBox();
    assert.ok(box !== null);
    // The right half of a 1-hour window: the last 30 minutes, which hold every line.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.get('until') !== null);
    const zoomed = new URL(page.url()).searchParams;
    const sinceSecs = Number(/^(\d+)s$/.exec(zoomed.get('since') ?? '')?.[1]);
    assert.ok(sinceSecs >= 1700 && sinceSecs <= 1900, `about 30 minutes (${zoomed.get('since')})`);
    await expectEventually(
      'all lines inside the zoom',
      () =>
        page
          .locator('.log-histogram figcaption')
          .innerText()
          .then((t) => t.split(' ')[0]),
      String(PLAIN_LINES + 1),
    );

    await page.getByLabel('Severity at least').selectOption('error');
    await waitForQuery(page, { severity: 'error' }, '/logs/explore');
    await expectEventually('errors only', () => listStatus(page), '1 newest log shown');
    // Back undoes the severity, then the zoom.
    await page.goBack();
    await waitForQuery(page, { severity: null }, '/logs/explore');
    await page.goBack();
    await waitForQuery(page, { since: '1h', until: null }, '/logs/explore');
    await page.close();
  });

  test('the global search links into the explorer with its text', async () => {
    const page = await app.page();
    await page.goto('/');
    await page.locator('#global-search').fill('unreachable');
    await page.getByRole('link', { name: 'Search logs for “unreachable”' }).click();
    await waitForQuery(page, { q: 'unreachable' }, '/logs/explore');
    await expectEventually('the error line', () => page.locator('.log-list .log-text').first().innerText(), ERROR_BODY);
    await page.close();
  });

  test("a template's recent hits show their text and open the explorer filtered by the template", async () => {
    const found = await getJson(`${app.svc.apiUrl}/api/v1/logs/search?service=${service}&severity=error`);
    const templateId = (found.body as { logs: { template_id: string }[] }).logs[0].template_id;
    const page = await app.page();
    await page.goto(`/logs/templates/${templateId}`);
    const recent = page.locator('table.recent-hits');
    await expectEventually('the recent hit with its text', async () => (await tableRows(recent)).map((cells) => [cells[1], cells[2], cells[3]]), [
      ['ERROR', ERROR_BODY, `${traceId.slice(0, 12)}…`],
    ]);
    await page.getByRole('link', { name: 'Open all its logs in the explorer' }).click();
    await waitForQuery(page, { template_id: templateId, since: '24h' }, '/logs/explore');
    await expectEventually("the template's logs", () => listStatus(page), '1 newest log shown');
    assert.equal(await page.locator('.log-list .log-text').first().innerText(), ERROR_BODY);
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
