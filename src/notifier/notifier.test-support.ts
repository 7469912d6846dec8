/** Shared by the notifier's tests: a real local HTTP receiver, alerts, a fake clock, captured logs. */

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { openTestBus } from '../testing/test-bus.js';
import type { NotifierSettings, NotifierTarget } from '../config/settings.js';
import type { Bus } from '../model/bus.js';
import type { Store } from '../model/store.js';
import { stringifyJson } from '../util/json.js';
import { createLogger } from '../util/log.js';
import { createNotifier } from './notifier.js';
import type { Sleep } from './target-queue.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The fake clock's time when the request arrived. */
  atMs: number;
}

/** What the receiver answers to its n-th request (0-based); 'hang' never answers. */
export type Responder = (index: number) => { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  close(): Promise<void>;
}

/** A node:http receiver on 127.0.0.1, port 0. */
export async function startReceiver(respond: Responder, clock: () => number = Date.now): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], respond, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = receiver.received.length;
      receiver.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), atMs: clock() });
      const answer = receiver.respond(index);
      if (answer === 'hang') return;
      res.writeHead(answer.status, answer.headers);
      res.end('{"echo":"' + (req.url ?? '') + '"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export const ok: Responder = () => ({ status: 200 });

/** A clock that only moves when the notifier sleeps (or the test moves it). */
export class FakeClock {
  nowMs: number;
  readonly slept: number[] = [];

  constructor(startMs = Date.now()) {
    this.nowMs = startMs;
  }

  readonly now = (): number => this.nowMs;

  readonly sleep: Sleep = async (ms, signal) => {
    if (signal.aborted) return;
    this.slept.push(ms);
    this.nowMs += ms;
    // Yield so a sender loop waiting on a long backoff does not starve the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  };
}

let alertCounter = 0;

/** A unique alert id per call (alerts of different tests never share delivery records). */
export function nextAlertId(): string {
  alertCounter += 1;
  return `${process.pid.toString(16)}${alertCounter.toString(16)}`.padStart(16, '0');
}

export interface AlertSpec {
  alert_id?: string;
  kind?: 'new' | 'spike' | 'silence';
  service?: string;
  template?: string;
  template_id?: string;
  started_at_ns?: bigint;
  last_at_ns?: bigint;
  window_count?: number;
  peak_count?: number;
  baseline_per_window?: number;
  trace_ids?: string[];
}

/** A log alert record value in the API's shape, `*_ns` as exact integers. */
export function alertValue(spec: AlertSpec, nowMs: number): { alert_id: string; value: Buffer } {
  const lastAtNs = spec.last_at_ns ?? BigInt(nowMs - 30_000) * 1_000_000n + 123_456n;
  const alert = {
    alert_id: spec.alert_id ?? nextAlertId(),
    kind: spec.kind ?? 'new',
    template_id: spec.template_id ?? '18446744073709551557',
    service: spec.service ?? 'checkout',
    template: spec.template ?? 'payment <*> declined',
    started_at_ns: spec.started_at_ns ?? lastAtNs - 60_000_000_000n,
    last_at_ns: lastAtNs,
    window_count: spec.window_count ?? 0,
    peak_count: spec.peak_count ?? 7,
    baseline_per_window: spec.baseline_per_window ?? 0,
    active: true,
    example_traces: (spec.trace_ids ?? []).map((trace_id, i) => ({ trace_id, story_id: i === 0 ? trace_id : null })),
  };
  return { alert_id: alert.alert_id, value: Buffer.from(stringifyJson(alert)) };
}

export const ALERTS_TOPIC = 'svc.alerts';

/** A fresh embedded bus with the alerts topic. */
export function alertsBus(): Promise<Bus> {
  return openTestBus([{ name: ALERTS_TOPIC, partitions: 3, retentionMs: 86_400_000, maxMessageBytes: 1_000_000 }]);
}

export function notifierSettings(targets: NotifierTarget[], over: Partial<NotifierSettings> = {}): { notifier: NotifierSettings } {
  return {
    notifier: {
      targets,
      public_url: 'http://svc.example:8090/',
      kinds: ['new', 'spike', 'silence'],
      max_attempts: 8,
      timeout_secs: 10,
      max_age_secs: 3_600,
      breaker_cooldown_secs: 300,
      alerts_topic: ALERTS_TOPIC,
      metrics_addr: '0.0.0.0:9100',
      ...over,
    },
  };
}

/** Log lines written by a pino logger at debug level. */
export function capturedLogger(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const logger = createLogger('debug', {
    write: (line: string) => {
      lines.push(line);
      return true;
    },
  } as unknown as NodeJS.WritableStream);
  return { logger, text: () => lines.join('') };
}

/** A started notifier with its bus, registry and captured logs. */
export async function startNotifier(
  store: Store,
  settings: { notifier: NotifierSettings },
  clock: { now: () => number; sleep: Sleep },
  queueCapacity?: number,
) {
  const bus = await alertsBus();
  const registry = new Registry();
  const logs = capturedLogger();
  const notifier = createNotifier(settings, { bus, store, registry, logger: logs.logger, nowMs: clock.now, sleep: clock.sleep, queueCapacity });
  await notifier.start();
  return {
    bus,
    registry,
    logs,
    notifier,
    publish: (value: { alert_id: string; value: Buffer }) => bus.publish(ALERTS_TOPIC, [{ key: value.alert_id, value: value.value }]),
    async close() {
      await notifier.close();
      await bus.close();
    },
  };
}

/** Polls `check` until it holds, failing after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The value of a counter or gauge sample in Prometheus text, or undefined. */
export async function metricValue(registry: Registry, name: string, labels: string): Promise<number | undefined> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}
