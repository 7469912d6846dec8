import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REMARK_TOKENS, coreLength, remarksNest } from './optional-tail.js';

const split = (s: string): string[] => s.split(' ');

test('the core ends before the trailing bracketed remarks', () => {
  assert.equal(coreLength(split('Connection closed by <*> port <*> [preauth]')), 6);
  assert.equal(coreLength(split('Task <*> failed (attempt <*>) (will retry)')), 3);
  assert.equal(coreLength(split('upload of <*> files done [<*> skipped]')), 5);
  assert.equal(coreLength(split('Task <*> failed')), 3);
});

test('a word ending in a bracket, an unbalanced group or a long run is not a remark', () => {
  assert.equal(coreLength(split('synced to LOCAL(<*>)')), 3);
  assert.equal(coreLength(split('sent to [a] b]')), 4);
  const long = `[${Array.from({ length: MAX_REMARK_TOKENS + 1 }, (_, i) => `w${i}`).join(' ')}]`;
  assert.equal(coreLength(split(`sent error ${long}`)), 2 + MAX_REMARK_TOKENS + 1);
});

test('the core keeps two tokens: a remark never stands for the line', () => {
  assert.equal(coreLength(split('done (ok)')), 2);
  // Taking `(pid <*>)` too would leave one token: it stays in the core.
  assert.equal(coreLength(split('started (pid <*>) (quiet)')), 3);
});

test('remarks nest when one run of remarks starts or ends the other', () => {
  const core = 3;
  assert.ok(remarksNest(split('Task <*> failed'), split('Task <*> failed [preauth]'), core));
  assert.ok(remarksNest(split('Task <*> failed (attempt <*>)'), split('Task <*> failed (attempt <*>) (will retry)'), core));
  assert.ok(remarksNest(split('Task <*> failed (will retry)'), split('Task <*> failed (attempt <*>) (will retry)'), core));
  assert.ok(!remarksNest(split('Task <*> failed (usable)'), split('Task <*> failed (reserved) (x)'), core));
});
