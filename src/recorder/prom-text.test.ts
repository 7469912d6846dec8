import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { parsePrometheusText, parseSampleLine } from './prom-text.js';
import { samplesFromRegistry } from './registry-samples.js';
import { instanceOf } from './scrape.js';

describe('prometheus text', () => {
  it('reads names, labels with escapes, values and ignores timestamps and comments', () => {
    const text = [
      '# HELP a_total things',
      '# TYPE a_total counter',
      'a_total{x="q\\"\\\\z\\n",y="2"} 2 1700000000000',
      'b 1.5e3',
      'c{} -0.25',
      'h_bucket{le="+Inf",} 7',
      '',
      '# EOF',
    ].join('\n');
    const parsed = parsePrometheusText(text, 100);
    assert.deepEqual(parsed.samples, [
      { metric: 'a_total', labels: { x: 'q"\\z\n', y: '2' }, value: 2 },
      { metric: 'b', labels: {}, value: 1500 },
      { metric: 'c', labels: {}, value: -0.25 },
      { metric: 'h_bucket', labels: { le: '+Inf' }, value: 7 },
    ]);
    assert.equal(parsed.malformedLines, 0);
  });

  it('leaves out NaN and infinite values and counts malformed lines', () => {
    const parsed = parsePrometheusText('g Nan\nh +Inf\ni -inf\nj{x=1} 2\nk{x="1" 2\nl abc\nm 1 2 3\nn 4', 100);
    assert.deepEqual(parsed.samples, [{ metric: 'n', labels: {}, value: 4 }]);
    assert.equal(parsed.nonFiniteSamples, 3);
    assert.equal(parsed.malformedLines, 4);
  });

  it('keeps at most maxSamples and counts the rest', () => {
    const parsed = parsePrometheusText('a 1\nb 2\nc 3', 2);
    assert.deepEqual(
      parsed.samples.map((s) => s.metric),
      ['a', 'b'],
    );
    assert.equal(parsed.droppedSamples, 1);
  });

  it('ignores an OpenMetrics exemplar after the value', () => {
    assert.deepEqual(parseSampleLine('h_bucket{le="1"} 5 # {trace_id="abc"} 0.5 1700000000.1'), { metric: 'h_bucket', labels: { le: '1' }, value: 5 });
  });

  it('refuses a bad escape', () => {
    assert.equal(parseSampleLine('a{x="\\t"} 1'), undefined);
  });
});

describe('registry samples', () => {
  it('flattens counters, gauges and histograms like the registry text output, without NaN', async () => {
    const registry = new Registry();
    new Counter({ name: 'svc_x_total', help: 'h', labelNames: ['r'], registers: [registry] }).inc({ r: 'a' }, 3);
    new Histogram({ name: 'svc_h_seconds', help: 'h', buckets: [0.1, 1], registers: [registry] }).observe(0.5);
    new Gauge({ name: 'svc_nan', help: 'h', registers: [registry] }).set(Number.NaN);
    const fromJson = await samplesFromRegistry(registry, 100);
    const fromText = parsePrometheusText(await registry.metrics(), 100);
    assert.deepEqual(fromJson.samples, fromText.samples);
    assert.deepEqual(fromJson.samples, [
      { metric: 'svc_x_total', labels: { r: 'a' }, value: 3 },
      { metric: 'svc_h_seconds_bucket', labels: { le: '0.1' }, value: 0 },
      { metric: 'svc_h_seconds_bucket', labels: { le: '1' }, value: 1 },
      { metric: 'svc_h_seconds_bucket', labels: { le: '+Inf' }, value: 1 },
      { metric: 'svc_h_seconds_sum', labels: {}, value: 0.5 },
      { metric: 'svc_h_seconds_count', labels: {}, value: 1 },
    ]);
    assert.equal(fromJson.nonFiniteSamples, 1);
  });
});

describe('instance', () => {
  it('is host:port, with the default port of the scheme', () => {
    assert.equal(instanceOf('http://writer:9100/metrics'), 'writer:9100');
    assert.equal(instanceOf('http://logminer-2/metrics'), 'logminer-2:80');
    assert.equal(instanceOf('https://ingest.example/metrics'), 'ingest.example:443');
    assert.equal(instanceOf('http://[::1]:9100/metrics'), '[::1]:9100');
  });
});
