/**
 * The webhook and chat bodies docs/settings.md shows are what the notifier sends: the same alert
 * rendered by the notifier's own body code gives the documented JSON, field for field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NotifierAlert } from '../notifier/alert.js';
import { requestBody } from '../notifier/body.js';
import { fencedBlocks } from './fenced-blocks.test-support.js';

/** The spike the documented bodies describe. */
const DOCUMENTED_ALERT: NotifierAlert = {
  alert_id: '3f2a9c4e1b7d6a05',
  kind: 'spike',
  template_id: '1846261936452110421',
  service: 'checkout',
  template: 'payment <*> declined: card <*>',
  started_at_ns: 1764060600000000000n,
  last_at_ns: 1764060900000000000n,
  window_count: 310,
  peak_count: 310,
  baseline_per_window: 12.5,
  example_trace_ids: ['4bf92f3577b34da6a3ce929d0e0e4736', '0af7651916cd43dd8448eb211c80319c'],
};
const PUBLIC_URL = 'https://svc.example.com';

function documentedBody(has: string): unknown {
  const blocks = fencedBlocks('settings.md').filter((block) => block.lang === 'json' && block.text.includes(has));
  assert.equal(blocks.length, 1, `one json block in docs/settings.md with ${has}`);
  return JSON.parse(blocks[0]!.text);
}

test('the documented webhook body is what the notifier sends a webhook target for that alert', () => {
  assert.deepEqual(documentedBody('"alert_id"'), JSON.parse(requestBody('webhook', DOCUMENTED_ALERT, PUBLIC_URL)));
});

test('the documented chat body is what the notifier sends a chat target: {"text": ...}', () => {
  const sent = JSON.parse(requestBody('chat', DOCUMENTED_ALERT, PUBLIC_URL)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(sent), ['text']);
  assert.deepEqual(documentedBody('"text"'), sent);
});
