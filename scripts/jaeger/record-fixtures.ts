/**
 * Records real Jaeger's answers for the Jaeger query API proof: starts the Jaeger v2 all-in-one
 * binary given as the first argument with in-memory storage on loopback ports, feeds it the
 * proof's OTLP traces, asks it every case and writes the answers as the fixture that
 * src/api/jaeger/jaeger-fixtures.e2e.test.ts holds svc to. Run through scripts/jaeger/record.sh.
 */

import { writeFileSync } from 'node:fs';
import { buildCases, buildExports } from '../../src/api/jaeger/jaeger-dataset.test-support.js';
import { startJaeger, waitFor } from '../../src/testing/jaeger.js';

const [binary, output, version] = process.argv.slice(2);
if (binary === undefined || output === undefined) {
  console.error('usage: record-fixtures.js <jaeger binary> <fixture.json> [jaeger version]');
  process.exit(2);
}

const jaeger = await startJaeger(binary, 'memory');
const { queryUrl } = jaeger;
try {
  // A base ten minutes back, off the millisecond grid so that truncation to µs shows.
  const baseNs = BigInt(Date.now() - 600_000) * 1_000_000n + 123_456n;
  for (const exported of buildExports(baseNs)) {
    const response = await fetch(jaeger.otlpTracesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: exported.body });
    if (!response.ok) throw new Error(`Jaeger refused the export of ${exported.traceId}: ${response.status} ${await response.text()}`);
  }
  for (const exported of buildExports(baseNs)) {
    await waitFor(`trace ${exported.traceId} in Jaeger`, async () => {
      const response = await fetch(`${queryUrl}/api/traces/${exported.traceId}`);
      if (!response.ok) return undefined;
      const body = (await response.json()) as { data: { spans: unknown[] }[] };
      return body.data[0]?.spans.length === exported.spanCount ? true : undefined;
    });
  }
  const answers = [];
  for (const { name, url } of buildCases(baseNs)) {
    const response = await fetch(`${queryUrl}${url}`);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    answers.push({ name, url, status: response.status, body });
  }
  // One answer per line: compact, and a re-recording's diff shows which answers changed.
  writeFileSync(
    output,
    `{"jaeger":${JSON.stringify(version ?? 'unknown')},"baseNs":"${baseNs}","answers":[\n${answers.map((answer) => JSON.stringify(answer)).join(',\n')}\n]}\n`,
  );
  console.error(`recorded ${answers.length} answers into ${output}`);
} finally {
  await jaeger.stop();
}
