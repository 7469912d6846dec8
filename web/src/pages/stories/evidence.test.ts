import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beforeAfter, formatMeasure } from './evidence.js';
import { evidenceHref, groupHref, serviceHref } from './incidentLinks.js';

describe('evidence measures', () => {
  it('reads each unit the way the rest of the app does', () => {
    assert.equal(formatMeasure(12.34, 'ms'), '12.3 ms');
    assert.equal(formatMeasure(4070, 'ms'), '4.07 s');
    assert.equal(formatMeasure(4.5, 'percent'), '4.5 %');
    assert.equal(formatMeasure(0, 'percent'), '0 %');
    assert.equal(formatMeasure(30, 'per_min'), '30/min');
    assert.equal(formatMeasure(Number.NaN, 'ms'), '–');
  });

  it('puts the hour before first and the window second', () => {
    assert.equal(beforeAfter({ before: 12, after: 41, unit: 'ms' }), '12 ms → 41 ms');
    assert.equal(beforeAfter({ before: 0.5, after: 38, unit: 'percent' }), '0.5 % → 38 %');
  });
});

describe('incident links', () => {
  const query = new URLSearchParams('since=6h&kind=error&until=2026-11-25T08:00:00Z');

  it('a story group narrows the Stories page to it, keeping window and filters', () => {
    assert.equal(groupHref(query, '9127354461880432217'), '/?since=6h&kind=error&until=2026-11-25T08%3A00%3A00Z&group=9127354461880432217');
    assert.equal(evidenceHref(query, { kind: 'story_group', fingerprint: '42', template_id: null }), groupHref(query, '42'));
  });

  it('a log template opens its page and a service the map, in the page window', () => {
    assert.equal(
      evidenceHref(query, { kind: 'log_template', fingerprint: null, template_id: '77' }),
      '/logs/templates/77?since=6h&until=2026-11-25T08%3A00%3A00Z',
    );
    assert.equal(serviceHref(new URLSearchParams(), 'cart service'), '/map?service=cart%20service');
    assert.equal(serviceHref(query, 'cart'), '/map?service=cart&since=6h&until=2026-11-25T08%3A00%3A00Z');
  });

  it('measures without a page of their own link nowhere', () => {
    assert.equal(evidenceHref(query, { kind: 'self_time', fingerprint: null, template_id: null }), null);
    assert.equal(evidenceHref(query, { kind: 'story_group', fingerprint: null, template_id: null }), null);
  });
});
