/**
 * Log alerts end to end: logs built and exported by the real OpenTelemetry JS SDK (back-dated
 * timestamps) into a running `svc all-in-one` with detection every second, read back through the
 * API: `new` after the warm-up, `spike` on the wall-clock window, `silence` set through the PUT
 * route, the coverage skip counted, and no `new` during a masking epoch's first 15 minutes after a
 * restart with a changed keep_http_status.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson, metricValue } from '../testing/http.js';
import { exportLogs, hrAt, logExporter, type ExporterKind } from '../testing/otel.js';

const MINUTE_MS = 60_000;
const data = tempDataDir('svc-e2e-logs-');
const ENV = { SVC__LOGMINER__DETECT_SECS: '1', SVC__LOGMINER__FLUSH_MS: '100', SVC__WRITER__MAX_AGE_MS: '200' };
let svc: RunningAllInOne;
/** Service names unique to this run. */
const tag = randomBytes(3).toString('hex');
const svcName = (name: string) => `${name}-${tag}`;

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: ENV });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

/** Log records of one service built by the SDK: [offset from now in ms, body, severity, trace context?]. */
function sdkLogs(service: string, nowMs: number, lines: [number, string, SeverityNumber?, boolean?][]): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger('svc-e2e-logs');
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }).getTracer('svc-e2e-logs');
  for (const [offsetMs, body, severity, traced] of lines) {
    const span = traced ? tracer.startSpan('op', { kind: SpanKind.SERVER }) : undefined;
    const context = span === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, span);
    logger.emit({ body, severityNumber: severity ?? SeverityNumber.INFO, timestamp: hrAt(nowMs, offsetMs), context });
    span?.end();
  }
  return memory.getFinishedLogRecords();
}

async function send(logs: ReadableLogRecord[], kind: ExporterKind = 'http-protobuf'): Promise<void> {
  const exporter = logExporter(kind, { grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort }, kind === 'grpc');
  await exportLogs(exporter, logs);
  await exporter.shutdown();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface ApiAlert {
  alert_id: string;
  kind: string;
  template_id: string;
  service: string;
  template: string;
  started_at_ns: number | bigint;
  last_at_ns: number | bigint;
  window_count: number;
  peak_count: number;
  baseline_per_window: number;
  active: boolean;
  example_traces: { trace_id: string; story_id: string | null }[];
}

interface ApiTemplate {
  template_id: string;
  service: string;
  template: string;
  count: number;
  alerting: boolean;
}

async function alertsOf(service: string, kind?: string): Promise<ApiAlert[]> {
  const query = new URLSearchParams({ service, ...(kind === undefined ? {} : { kind }) });
  const response = await getJson(`${svc.apiUrl}/api/v1/log-alerts?${query}`);
  assert.equal(response.status, 200);
  return response.body as ApiAlert[];
}

async function waitForTemplate(service: string, text: string): Promise<ApiTemplate> {
  return until(`template "${text}" of ${service}`, async () => {
    const response = await getJson(`${svc.apiUrl}/api/v1/log-templates?since=2h&service=${encodeURIComponent(service)}`);
    return (response.body as ApiTemplate[]).find((t) => t.template === text);
  });
}

async function metrics(): Promise<string> {
  return (await fetch(`${svc.apiUrl}/metrics`)).text();
}

/** Completed detection passes: each stored and published what it detected before it counts. */
async function detectPasses(): Promise<number> {
  return metricValue(await metrics(), 'svc_logminer_detect_passes_total');
}

/** Waits until `count` more detection passes have completed than `from`. */
async function untilDetectPasses(from: number, count: number): Promise<void> {
  await until(`${count} more detection passes`, async () => ((await detectPasses()) >= from + count ? true : undefined));
}

/** Offsets (ms before now) in the middle of the minute `minutesAgo` whole minutes before the current one. */
function inMinute(nowMs: number, minutesAgo: number, secondInMinute = 30): number {
  const minuteStart = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS - minutesAgo * MINUTE_MS;
  return minuteStart + secondInMinute * 1000 - nowMs;
}

describe('log alerts through the real SDK', () => {
  test('a template first seen after the warm-up raises a new alert with its example trace', async () => {
    const service = svcName('orders');
    const nowMs = Date.now();
    const warm: [number, string][] = [];
    for (let i = 0; i < 5; i++) warm.push([-30 * MINUTE_MS + i * 1000, `order ${100 + i} accepted`]);
    await send(sdkLogs(service, nowMs, warm), 'grpc');
    await waitForTemplate(service, 'order <*> accepted');
    await send(sdkLogs(service, Date.now(), [[-500, 'payment gateway unreachable, giving up', SeverityNumber.ERROR, true]]), 'http-json');
    const [alert] = await until('a new alert', async () => {
      const found = await alertsOf(service, 'new');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(alert.template, 'payment gateway unreachable, giving up');
    assert.equal(alert.active, true);
    assert.equal(alert.window_count, 0);
    assert.equal(alert.example_traces.length, 1);
    assert.match(alert.example_traces[0].trace_id, /^[0-9a-f]{32}$/);
    assert.equal(alert.example_traces[0].story_id, null);
    const template = await waitForTemplate(service, alert.template);
    assert.equal(template.alerting, true);
    // The warm template is not new: only one new alert for the service.
    assert.equal((await alertsOf(service, 'new')).length, 1);
  });

  test('a template at 5x its baseline with at least 10 logs in the wall-clock window raises a spike', async () => {
    const service = svcName('cache');
    const nowMs = Date.now();
    const lines: [number, string][] = [];
    // A heartbeat every minute of the last 70 covers the window and its baseline hour.
    for (let m = 70; m >= 1; m--) lines.push([inMinute(nowMs, m, 5), 'heartbeat ok']);
    // The spiking template: one line 50 minutes ago, then 30 in the last whole minutes.
    lines.push([inMinute(nowMs, 50), 'cache miss for key 7']);
    for (let i = 0; i < 30; i++) lines.push([inMinute(nowMs, 1 + (i % 3), 10 + i), `cache miss for key ${1000 + i}`]);
    lines.sort((a, b) => a[0] - b[0]);
    await send(sdkLogs(service, nowMs, lines));
    const [spike] = await until('a spike alert', async () => {
      const found = await alertsOf(service, 'spike');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(spike.template, 'cache miss for key <*>');
    assert.ok(spike.window_count >= 20, `window_count ${spike.window_count}`);
    assert.ok(spike.window_count >= 5 * spike.baseline_per_window);
    assert.ok(spike.baseline_per_window > 0 && spike.baseline_per_window < 1, `baseline ${spike.baseline_per_window}`);
    assert.equal(spike.active, true);
    // The steady heartbeat never spikes.
    assert.deepEqual(
      (await alertsOf(service, 'spike')).map((a) => a.template),
      ['cache miss for key <*>'],
    );
  });

  test('a spike candidate whose service covered too few minutes is skipped and counted', async () => {
    const service = svcName('batch');
    const before = metricValue(await metrics(), 'svc_logminer_spike_skipped_total', { reason: 'coverage' });
    const nowMs = Date.now();
    const lines: [number, string][] = [[inMinute(nowMs, 40), 'batch 1 imported']];
    for (let i = 0; i < 15; i++) lines.push([inMinute(nowMs, 2, 10 + i), `batch ${2 + i} imported`]);
    await send(sdkLogs(service, nowMs, lines));
    const passesAtSkip = await until('the coverage skip counted', async () => {
      const text = await metrics();
      const skipped = metricValue(text, 'svc_logminer_spike_skipped_total', { reason: 'coverage' });
      return skipped > before ? metricValue(text, 'svc_logminer_detect_passes_total') : undefined;
    });
    // The pass that skipped may still be storing its alerts: one more completed pass after it.
    await untilDetectPasses(passesAtSkip, 2);
    assert.deepEqual(await alertsOf(service, 'spike'), []);
  });

  test('a template with silence enabled raises a silence alert once its service logs past the silence', async () => {
    const service = svcName('cron');
    const nowMs = Date.now();
    await send(
      sdkLogs(service, nowMs, [
        [-40 * MINUTE_MS, 'nightly export finished'],
        [-39 * MINUTE_MS, 'worker pool resized'],
      ]),
    );
    const quiet = await waitForTemplate(service, 'nightly export finished');
    const put = await fetch(`${svc.apiUrl}/api/v1/log-templates/${quiet.template_id}/silence`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"enabled":true,"minutes":5}',
    });
    assert.equal(put.status, 200);
    assert.deepEqual(await put.json(), { enabled: true, minutes: 5 });
    // The service keeps logging other lines: its log clock passes the last hit + 5 minutes.
    await send(sdkLogs(service, Date.now(), [[-1000, 'worker pool resized']]));
    const [silence] = await until('a silence alert', async () => {
      const found = await alertsOf(service, 'silence');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(silence.template_id, quiet.template_id);
    // started_at is the template's last hit.
    assert.equal(BigInt(silence.started_at_ns), BigInt(nowMs - 40 * MINUTE_MS) * 1_000_000n);
    assert.equal(silence.active, true);
    const detail = await getJson(`${svc.apiUrl}/api/v1/log-templates/${quiet.template_id}`);
    assert.deepEqual((detail.body as { silence: unknown }).silence, { enabled: true, minutes: 5 });
    // Silence alerts do not make a template alerting.
    assert.equal((await waitForTemplate(service, 'nightly export finished')).alerting, false);
  });

  test('after a restart with a changed keep_http_status, a new masking epoch raises no new alerts', async () => {
    assert.equal(await svc.stop(), 0);
    svc = await startAllInOne({ dataDir: data.dir, env: { ...ENV, SVC__LOGMINER__KEEP_HTTP_STATUS: 'false' } });
    assert.ok(
      svc.logs.some((l) => l.component === 'logminer' && l.newEpoch === true),
      'the logminer logs the new epoch',
    );
    const service = svcName('epoch');
    const nowMs = Date.now();
    const warm: [number, string][] = [];
    for (let i = 0; i < 5; i++) warm.push([-30 * MINUTE_MS + i * 1000, `session ${100 + i} opened`]);
    await send(sdkLogs(service, nowMs, warm));
    await waitForTemplate(service, 'session <*> opened');
    await send(sdkLogs(service, Date.now(), [[-500, 'disk quota exceeded on volume data', SeverityNumber.ERROR]]));
    await waitForTemplate(service, 'disk quota exceeded on volume data');
    // Three more completed passes, so at least two began after the template was mined and listed: none raises it.
    await untilDetectPasses(await detectPasses(), 3);
    assert.deepEqual(await alertsOf(service, 'new'), []);
    assert.equal(metricValue(await metrics(), 'svc_logminer_alerts_total', { kind: 'new' }), 0);
    // Alerts of the earlier epoch are still listed.
    assert.equal((await alertsOf(svcName('orders'), 'new')).length, 1);
  });
});
