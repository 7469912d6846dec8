/**
 * Logs pages in chromium against a running all-in-one (detection every second) fed with logs
 * built and exported by the OpenTelemetry SDK: `/logs` goes to the alerts tab, alerts and templates
 * show their values, and the silence setting edited on a template's page is stored.
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

const MINUTE_MS = 60_000;
const service = `orders-${randomBytes(3).toString('hex')}`;
const WARM = 'order <*> accepted';
const NEW = 'payment gateway unreachable, giving up';
let app: BrowserApp;
let exampleTraceId = '';

/** Log records of the service: [offset from now in ms, body, severity, inside a span?]. */
function sdkLogs(nowMs: number, lines: [number, string, SeverityNumber, boolean][]): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger('svc-e2e-browser');
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }).getTracer('svc-e2e-browser');
  for (const [offsetMs, body, severity, traced] of lines) {
    const span = traced ? tracer.startSpan('op', { kind: SpanKind.SERVER }) : undefined;
    if (span !== undefined) exampleTraceId = span.spanContext().traceId;
    logger.emit({
      body,
      severityNumber: severity,
      timestamp: hrAt(nowMs, offsetMs),
      context: span === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, span),
    });
    span?.end();
  }
  return memory.getFinishedLogRecords();
}

async function send(logs: ReadableLogRecord[]): Promise<void> {
  const exporter = logExporter('http-protobuf', app.svc, false);
  await exportLogs(exporter, logs);
  await exporter.shutdown();
}

async function templates(): Promise<{ template_id: string; template: string }[]> {
  return (await getJson(`${app.svc.apiUrl}/api/v1/log-templates?since=2h&service=${service}`)).body as { template_id: string; template: string }[];
}

before(async () => {
  app = await startBrowserApp('logs', { SVC__LOGMINER__DETECT_SECS: '1', SVC__LOGMINER__FLUSH_MS: '100', SVC__WRITER__MAX_AGE_MS: '200' });
  // Five lines 30 minutes ago end the service's warm-up; a line of a new shape then raises `new`.
  const nowMs = Date.now();
  await send(
    sdkLogs(
      nowMs,
      [0, 1, 2, 3, 4].map((i): [number, string, SeverityNumber, boolean] => [
        -30 * MINUTE_MS + i * 1000,
        `order ${100 + i} accepted`,
        SeverityNumber.INFO,
        false,
      ]),
    ),
  );
  await until('the warm template', async () => ((await templates()).some((t) => t.template === WARM) ? true : undefined));
  await send(sdkLogs(Date.now(), [[-500, NEW, SeverityNumber.ERROR, true]]));
  await until('the new alert', async () => {
    const alerts = (await getJson(`${app.svc.apiUrl}/api/v1/log-alerts?kind=new&service=${service}`)).body as unknown[];
    return alerts.length > 0 ? true : undefined;
  });
});

after(async () => {
  await app?.close();
});

/** Template rows as [template, service, total, severity, state]. */
async function templateRows(page: Page): Promise<string[][]> {
  return (await tableRows(page.locator('table.data'))).map((cells) => [cells[0], cells[1], cells[3], cells[4], cells[5]]);
}

describe('Logs in the browser', () => {
  test('/logs goes to the alerts tab, keeping the query, and lists the new alert with its values', async () => {
    const page = await app.page();
    await page.goto(`/logs?service=${service}`);
    await waitForQuery(page, { service }, '/logs/alerts');
    const table = page.locator('table.alerts');
    // A new alert's peak is the template's hits when it was raised: the one line sent.
    await expectEventually('the alert row', async () => (await tableRows(table)).map((cells) => [cells[0], cells[1], cells[2], cells[5], cells[6]]), [
      ['new', `${service} ${NEW}`, 'new template; 1 hit so far', 'active', `trace ${exampleTraceId.slice(0, 8)}`],
    ]);
    assert.equal(await page.locator('nav.tabs [aria-current="page"]').textContent(), 'Alerts');
    await screenshot(page, 'logs-alerts');

    await page.getByRole('link', { name: `trace ${exampleTraceId.slice(0, 8)}` }).click();
    await page.waitForURL((url) => url.pathname === `/traces/${exampleTraceId}`);
    await page.locator('#trace-logs').waitFor();
    await expectEventually(
      "the trace's log",
      () =>
        page
          .locator('.panel')
          .filter({ has: page.locator('#trace-logs') })
          .innerText()
          .then((text) => text.includes(NEW)),
      true,
    );
    await page.close();
  });

  test('/logs/templates lists the mined templates; the search changes the URL and the rows', async () => {
    const page = await app.page();
    await page.goto(`/logs/templates?service=${service}`);
    await expectEventually(
      'templates',
      async () => (await templateRows(page)).sort(),
      [
        [NEW, service, '1', 'ERROR', 'alerting'],
        [WARM, service, '5', 'INFO', 'quiet'],
      ].sort(),
    );
    await screenshot(page, 'logs-templates');

    await page.getByLabel('Template contains').fill('accepted');
    await waitForQuery(page, { service, q: 'accepted' }, '/logs/templates');
    await expectEventually('templates with "accepted"', () => templateRows(page), [[WARM, service, '5', 'INFO', 'quiet']]);
    await page.close();
  });

  test('/logs/templates/{id} shows the template; the silence setting saved there persists', async () => {
    const page = await app.page();
    await page.goto(`/logs/templates?service=${service}&q=accepted`);
    await page.getByRole('link', { name: WARM }).click();
    const id = (await templates()).find((t) => t.template === WARM)!.template_id;
    await page.waitForURL((url) => url.pathname === `/logs/templates/${id}`);
    assert.equal(await page.locator('h2.template-title').textContent(), WARM);
    const facts = await page
      .locator('dl.facts')
      .first()
      .evaluate((dl: DomElement) =>
        Object.fromEntries(Array.from(dl.querySelectorAll('dt'), (dt) => [dt.textContent ?? '', dt.nextElementSibling?.innerText.trim() ?? ''])),
      );
    assert.equal(facts.Service, service);
    assert.equal(facts.Hits, '5 since first seen (approximate)');
    assert.match(facts.Sample, /^order 10[0-4] accepted$/);
    assert.equal(await page.locator('.silence-form').getByText('Never set.').count(), 1);

    await page.getByLabel('Alert when silent').check();
    await page.getByLabel('for minutes').fill('45');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: alert when silent for 45 minutes.').waitFor();
    const stored = await getJson(`${app.svc.apiUrl}/api/v1/log-templates/${id}`);
    assert.deepEqual((stored.body as { silence: unknown }).silence, { enabled: true, minutes: 45 });
    await screenshot(page, 'log-template');

    await page.reload();
    await page.getByText('Stored: on, 45 minutes.').waitFor();
    assert.equal(await page.getByLabel('Alert when silent').isChecked(), true);
    assert.equal(await page.getByLabel('for minutes').inputValue(), '45');
    await page.goto(`/logs/templates?service=${service}&q=accepted`);
    await expectEventually('the template marked as watched', async () => (await templateRows(page)).map((row) => row[4]), ['silence watch']);
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
