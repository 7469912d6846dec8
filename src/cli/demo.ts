/**
 * `svc demo`: the fault simulator for a newcomer. Starts svc all-in-one itself (in a temporary data
 * directory unless settings name one) or sends to a running svc (`--otlp-url`); backfills an hour of
 * fault-free history, then sends live traffic in real time while faults come and go on a schedule,
 * printing each as it starts and ends. Stops after `--minutes`, or on Ctrl-C.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load.js';
import { createLogger } from '../util/log.js';
import { describeFault, type Fault } from '../simulator/faults.js';
import { faultSchedule } from '../simulator/schedule.js';
import { createOtlpSender, SendError, type OtlpSender } from '../simulator/send.js';
import { createSimulator, type Simulator } from '../simulator/simulate.js';
import { startAllInOne, type RunningAllInOne } from './all-in-one.js';

export const DEMO_USAGE = `usage: svc demo [--minutes N] [--rate N] [--seed N] [--otlp-url URL [--api-url URL]]

  --minutes N       how long to send live traffic (default 15, at most 1440)
  --rate N          requests (traces) per second, about 24 spans and 10 log lines each (default 4)
  --seed N          the simulation's seed (default 1): the same seed gives the same shop and faults
  --otlp-url URL    send to a running svc's OTLP/HTTP receiver (e.g. http://localhost:4318) instead of
                    starting svc all-in-one
  --api-url URL     with --otlp-url: the web app's address, for the links printed (default: the
                    OTLP host on port 8090)
  --history-minutes N  fault-free history sent first (default 60)`;

export interface DemoOptions {
  minutes: number;
  rate: number;
  seed: number;
  historyMinutes: number;
  otlpUrl?: string;
  apiUrl?: string;
}

/** A fault every 4 minutes lasting 3, the first 20 s into the live traffic. */
const FAULT_EVERY_MS = 4 * 60_000;
const FAULT_LASTING_MS = 3 * 60_000;
const FIRST_FAULT_AFTER_MS = 20_000;
const TICK_MS = 1000;
/** embedded.data_dir's default. */
const DEFAULT_DATA_DIR = './svc-data';

export class DemoUsageError extends Error {}

export function parseDemoArgs(args: string[]): DemoOptions {
  const options: DemoOptions = { minutes: 15, rate: 4, seed: 1, historyMinutes: 60 };
  const number = (flag: string, text: string | undefined, min: number, max: number, whole: boolean) => {
    const value = Number(text);
    if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
      throw new DemoUsageError(`${flag} must be ${whole ? 'a whole number' : 'a number'} within ${min}..=${max}`);
    }
    return value;
  };
  const url = (flag: string, text: string | undefined) => {
    try {
      const parsed = new URL(text ?? '');
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
      return parsed.origin;
    } catch {
      throw new DemoUsageError(`${flag} must be an http:// or https:// URL, e.g. http://localhost:4318`);
    }
  };
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index];
    const value = args[index + 1];
    switch (flag) {
      case '--minutes':
        options.minutes = number(flag, value, 1, 1440, false);
        break;
      case '--rate':
        options.rate = number(flag, value, 0.1, 1000, false);
        break;
      case '--seed':
        options.seed = number(flag, value, 0, 4294967295, true);
        break;
      case '--history-minutes':
        options.historyMinutes = number(flag, value, 0, 180, true);
        break;
      case '--otlp-url':
        options.otlpUrl = url(flag, value);
        break;
      case '--api-url':
        options.apiUrl = url(flag, value);
        break;
      default:
        throw new DemoUsageError(`unknown option ${JSON.stringify(flag)}`);
    }
  }
  if (options.apiUrl !== undefined && options.otlpUrl === undefined) throw new DemoUsageError('--api-url goes with --otlp-url');
  return options;
}

const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
const say = (line: string) => process.stdout.write(`${line}\n`);
const thousands = (value: number) => value.toLocaleString('en-US');
const minutesText = (count: number) => `${count} minute${count === 1 ? '' : 's'}`;

/** The demo's stop: the first SIGINT or SIGTERM ends the traffic and shuts down cleanly; a second one exits at once. */
function stopSignal(): { stopped: () => boolean; sleep: (ms: number) => Promise<void>; onStop: (callback: () => void) => void; dispose: () => void } {
  let stopped = false;
  let wake: (() => void) | undefined;
  const callbacks: (() => void)[] = [];
  const onSignal = () => {
    if (stopped) process.exit(130);
    stopped = true;
    say('stopping: finishing the export in flight (Ctrl-C again to quit at once)');
    wake?.();
    for (const callback of callbacks) callback();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stopped: () => stopped,
    onStop: (callback) => callbacks.push(callback),
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      }),
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export async function runDemo(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    say(DEMO_USAGE);
    return 0;
  }
  let options: DemoOptions;
  try {
    options = parseDemoArgs(args);
  } catch (error) {
    if (!(error instanceof DemoUsageError)) throw error;
    process.stderr.write(`svc demo: ${error.message}\n${DEMO_USAGE}\n`);
    return 2;
  }
  const stop = stopSignal();
  let svc: RunningAllInOne | undefined;
  let tempDir: string | undefined;
  try {
    let otlpUrl: string;
    let apiUrl: string;
    if (options.otlpUrl === undefined) {
      // A data directory of its own unless the settings name one (the default ./svc-data counts as
      // none: a demo should not fill the directory a real install would use); quiet logs unless RUST_LOG asks.
      const demoEnv = { ...env, RUST_LOG: env.RUST_LOG ?? 'warn' };
      let settings = loadSettings('all-in-one', demoEnv);
      if (settings.embedded.data_dir === DEFAULT_DATA_DIR) {
        tempDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
        settings = loadSettings('all-in-one', { ...demoEnv, SVC__EMBEDDED__DATA_DIR: tempDir });
      }
      say(`svc demo: starting svc all-in-one (data in ${settings.embedded.data_dir}${tempDir === undefined ? '' : ', removed when the demo ends'})`);
      svc = await startAllInOne(settings, createLogger(settings.log_filter));
      otlpUrl = `http://127.0.0.1:${svc.otlpHttpPort}`;
      apiUrl = `http://localhost:${svc.apiPort}`;
    } else {
      otlpUrl = options.otlpUrl;
      apiUrl = options.apiUrl ?? `${new URL(otlpUrl).protocol}//${new URL(otlpUrl).hostname}:8090`;
    }
    if (!stop.stopped()) await play(options, otlpUrl, apiUrl, stop);
    return 0;
  } catch (error) {
    if (!(error instanceof SendError)) throw error;
    if (stop.stopped()) return 0;
    process.stderr.write(`svc demo: could not send: ${error.message}\n`);
    return 1;
  } finally {
    stop.dispose();
    if (svc !== undefined) {
      say('svc demo: stopping svc all-in-one (it stores what it holds first)');
      const clean = await svc.stop();
      if (!clean) process.exitCode = 1;
    }
    if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
  }
}

async function play(options: DemoOptions, otlpUrl: string, apiUrl: string, stop: ReturnType<typeof stopSignal>): Promise<void> {
  const historyEndMs = Date.now();
  const history = createSimulator({ seed: options.seed, tracesPerSec: options.rate });
  let told = false;
  // "Retry later" answers are svc pacing the backfill, as expected; an unreachable receiver is worth a line.
  const onRetry = (_signal: string, reason: string) => {
    if (told || reason.startsWith('answered')) return;
    told = true;
    say(`waiting for ${otlpUrl}: ${reason} (retrying for 30 s)`);
  };
  const sender = createOtlpSender({ url: otlpUrl, giveUpAfterMs: 30_000, onRetry });
  // Ctrl-C while an export waits to be retried (svc busy or unreachable) stops at once.
  stop.onStop(() => sender.stopRetrying());

  say(
    `svc demo: an online shop of ${history.model.services.length} services (every request enters through ${history.model.gateway}'s "${history.model.rootSpanName}")`,
  );
  say(`  sending OTLP to ${otlpUrl}, about ${options.rate} requests/s`);
  say(`  open ${apiUrl} : Stories (what failed or was slow, and why), Logs (templates and alerts), Map, Pipeline`);
  say(
    `  after the history, a fault every ${FAULT_EVERY_MS / 60_000} minutes for ${FAULT_LASTING_MS / 60_000}, for ${minutesText(options.minutes)} (Ctrl-C stops)`,
  );
  try {
    if (options.historyMinutes > 0) await backfill(history, sender, historyEndMs, options.historyMinutes, stop);
    // The faults are scheduled from now, when the live traffic starts; the seconds the backfill took
    // are sent first, fault-free, from the same seed.
    const liveStartMs = Date.now();
    const liveEndMs = liveStartMs + options.minutes * 60_000;
    const faults = faultSchedule({
      seed: options.seed,
      model: history.model,
      startMs: liveStartMs,
      endMs: liveEndMs,
      firstAfterMs: FIRST_FAULT_AFTER_MS,
      everyMs: FAULT_EVERY_MS,
      lastingMs: FAULT_LASTING_MS,
    });
    const simulator = createSimulator({ seed: options.seed, tracesPerSec: options.rate, faults });
    await live(simulator, sender, faults, historyEndMs, liveEndMs, stop);
  } finally {
    sender.close();
    const totals = sender.totals();
    say(`svc demo: sent ${thousands(totals.spans)} spans and ${thousands(totals.logs)} log records in ${thousands(totals.exports)} exports`);
  }
}

/** The hour before the live traffic, fault-free, sent as fast as the receiver takes it. */
async function backfill(simulator: Simulator, sender: OtlpSender, untilMs: number, minutes: number, stop: ReturnType<typeof stopSignal>): Promise<void> {
  const startedMs = Date.now();
  say(`history: sending the last ${minutesText(minutes)} of fault-free traffic`);
  for (let minute = 0; minute < minutes && !stop.stopped(); minute++) {
    const fromMs = untilMs - (minutes - minute) * 60_000;
    await sender.send(simulator.generate(fromMs, fromMs + 60_000));
    if ((minute + 1) % 10 === 0 || minute + 1 === minutes)
      say(`history: ${minute + 1} of ${minutes} minutes sent (${thousands(sender.totals().spans)} spans) in ${Math.round((Date.now() - startedMs) / 1000)} s`);
  }
}

/** Real-time traffic from fromMs, one batch a second, announcing faults as they start and end. */
async function live(
  simulator: Simulator,
  sender: OtlpSender,
  faults: Fault[],
  fromMs: number,
  liveEndMs: number,
  stop: ReturnType<typeof stopSignal>,
): Promise<void> {
  say(`live: sending traffic until ${clock(liveEndMs)}; the first fault starts at ${faults[0] === undefined ? '-' : clock(faults[0].fromMs)}`);
  const announced = new Set<Fault>();
  const ended = new Set<Fault>();
  let cursorMs = fromMs;
  while (!stop.stopped()) {
    const nowMs = Math.min(Date.now(), liveEndMs);
    for (const fault of faults) {
      if (!announced.has(fault) && fault.fromMs <= nowMs) {
        announced.add(fault);
        say(`fault: ${describeFault(fault)} (${clock(fault.fromMs)} until ${clock(fault.toMs)})`);
      }
      if (!ended.has(fault) && fault.toMs <= nowMs && fault.toMs < liveEndMs) {
        ended.add(fault);
        say(`fault over: ${describeFault(fault)}`);
      }
    }
    if (nowMs > cursorMs) {
      await sender.send(simulator.generate(cursorMs, nowMs));
      cursorMs = nowMs;
    }
    if (nowMs >= liveEndMs) break;
    await stop.sleep(Math.min(TICK_MS, liveEndMs - Date.now()));
  }
}
