import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTopology, type Topology, type TraceSpanInput } from './topology.js';

const MS = 1_000_000n;
const T0 = 1_795_000_000_000_000_000n;

function span(id: string, parent: string, startMs: number, durationMs: number, extra: Partial<TraceSpanInput> = {}): TraceSpanInput {
  return {
    span_id: id.padStart(16, '0'),
    parent_span_id: parent === '' ? '' : parent.padStart(16, '0'),
    service_name: 'svc-a',
    span_name: `op ${id}`,
    kind: 'internal',
    start_ns: T0 + BigInt(startMs) * MS,
    duration_ns: BigInt(durationMs) * MS,
    self_ns: BigInt(durationMs) * MS,
    status: 'unset',
    status_message: '',
    ...extra,
  };
}

const topo = (spans: TraceSpanInput[], options: { maxSpans: number; focusSpanId?: string }): Topology => {
  const built = buildTopology(spans, options);
  assert.ok(!('missingFocus' in built));
  return built;
};
const ids = (t: Topology) => t.spans.map((s) => s.span_id.replace(/^0+/, ''));

test('depth-first order with position paths; children by start time, whatever the input order', () => {
  const spans = [span('c', 'a', 30, 5), span('a', '', 0, 100), span('b', 'a', 10, 10), span('d', 'b', 12, 2, { status: 'error', status_message: 'boom' })];
  const t = topo(spans, { maxSpans: 100 });
  assert.deepEqual(ids(t), ['a', 'b', 'd', 'c']);
  assert.deepEqual(
    t.spans.map((s) => s.path),
    ['0', '0.0', '0.0.0', '0.1'],
  );
  assert.equal(t.summarised, false);
  assert.equal(t.error_spans, 1);
  assert.equal(t.spans[2]?.error, 'boom');
  assert.equal(t.spans[3]?.start_ms, 30);
  assert.equal(t.start_ns, T0.toString(), 'the trace start stays exact');
  assert.equal(t.duration_ms, 100);
});

test('a span whose parent never arrived and a parent cycle become extra roots, nothing is lost', () => {
  const spans = [span('a', '', 0, 10), span('o', 'missing', 5, 1), span('x', 'y', 20, 1), span('y', 'x', 21, 1)];
  const t = topo(spans, { maxSpans: 100 });
  assert.equal(t.spans.length, 4);
  assert.deepEqual(
    t.spans.map((s) => s.path),
    ['0', '1', '2', '2.0'],
  );
});

test('a large trace is summarised: root, failing spans with their ancestors, at most maxSpans, hidden children counted', () => {
  const spans = [span('1', '', 0, 1000)];
  for (let i = 2; i <= 2000; i++)
    spans.push(span(i.toString(16), Math.floor(i / 2).toString(16), i % 500, 1, i === 1999 ? { status: 'error', status_message: 'deep failure' } : {}));
  const t = topo(spans, { maxSpans: 50 });
  assert.equal(t.summarised, true);
  assert.equal(t.span_count, 2000);
  assert.ok(t.spans.length <= 50 && t.spans.length >= 40, `${t.spans.length}`);
  assert.equal(t.spans[0]?.path, '0');
  const failing = t.spans.find((s) => s.error === 'deep failure');
  assert.ok(failing !== undefined, 'the failing span is shown');
  // Every listed span's ancestors are listed too, so paths read as a tree.
  const paths = new Set(t.spans.map((s) => s.path));
  for (const s of t.spans) {
    const parts = s.path.split('.');
    for (let n = 1; n < parts.length; n++) assert.ok(paths.has(parts.slice(0, n).join('.')), `ancestor of ${s.path}`);
  }
  const hidden = t.spans.reduce((sum, s) => sum + (s.hidden_children ?? 0), 0);
  assert.ok(hidden > 0);
  assert.ok((t.operations ?? []).length > 0 && (t.operations ?? []).length <= 15);
});

test('a focus span lists only its subtree; an unknown focus is reported', () => {
  const spans = [span('a', '', 0, 100), span('b', 'a', 10, 10), span('d', 'b', 12, 2), span('c', 'a', 30, 5)];
  const t = topo(spans, { maxSpans: 100, focusSpanId: '000000000000000b' });
  assert.deepEqual(ids(t), ['b', 'd']);
  assert.equal(t.scope_span_count, 2);
  assert.deepEqual(buildTopology(spans, { maxSpans: 100, focusSpanId: 'ffffffffffffffff' }), { missingFocus: true });
});
