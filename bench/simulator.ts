/**
 * Simulator benchmark: spans (with their logs) generated per second on one core by the default shop,
 * with one fault active, over ten simulated minutes at 200 traces/s (the shape a benchmark's
 * history has), and the same traffic encoded to OTLP protobuf as the sender does.
 * Run: node dist/bench/simulator.js
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { createSimulator } from '../src/simulator/simulate.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTES = 10;

export interface SimulatorFigures {
  spansPerSec: number;
  logsPerSec: number;
  encodedSpansPerSec: number;
  spansPerTrace: number;
  loadAverage: string;
}

export async function main(): Promise<SimulatorFigures> {
  const simulator = createSimulator({
    seed: 1,
    tracesPerSec: 200,
    faults: [{ kind: 'cpu', service: 'pricing', fromMs: T0 + 3 * 60_000, toMs: T0 + 6 * 60_000 }],
  });
  simulator.generate(T0 - 60_000, T0); // warm-up
  let spans = 0;
  let logs = 0;
  let traces = 0;
  let generateMs = 0;
  let encodeMs = 0;
  for (let minute = 0; minute < MINUTES; minute++) {
    const startedMs = performance.now();
    const batch = simulator.generate(T0 + minute * 60_000, T0 + (minute + 1) * 60_000);
    generateMs += performance.now() - startedMs;
    spans += batch.spans.length;
    logs += batch.logs.length;
    traces += batch.spans.filter((span) => span.parentSpanId === '').length;
    const encodeStartedMs = performance.now();
    for (let start = 0; start < batch.spans.length; start += 5000) encodeTracesData(batch.spans.slice(start, start + 5000));
    for (let start = 0; start < batch.logs.length; start += 5000) encodeLogsData(batch.logs.slice(start, start + 5000));
    encodeMs += performance.now() - encodeStartedMs;
  }
  const figures: SimulatorFigures = {
    spansPerSec: Math.round((spans / generateMs) * 1000),
    logsPerSec: Math.round((logs / generateMs) * 1000),
    encodedSpansPerSec: Math.round((spans / encodeMs) * 1000),
    spansPerTrace: Math.round((spans / traces) * 10) / 10,
    loadAverage: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' '),
  };
  console.log(
    `simulator: ${figures.spansPerSec.toLocaleString('en-US')} spans/s generated (with ${figures.logsPerSec.toLocaleString('en-US')} logs/s), ${figures.spansPerTrace} spans per trace; ` +
      `encoding ${figures.encodedSpansPerSec.toLocaleString('en-US')} spans/s with their logs; ${spans.toLocaleString('en-US')} spans in all; load average ${figures.loadAverage}`,
  );
  return figures;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
