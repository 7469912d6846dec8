import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignServiceColors, PALETTE_HUES, resetServiceColors, serviceHue } from './colors.js';

/** Degrees between two hues on the wheel. */
const apart = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

describe('service colours', () => {
  it('gives the first 12 services 12 different hues, at least 26 degrees apart, none near the error red', () => {
    resetServiceColors();
    const services = [
      'web-frontend',
      'payment-svc',
      'checkout-svc',
      'cart',
      'ad',
      'email',
      'quote',
      'shipping',
      'currency',
      'fraud-detection',
      'accounting',
      'kafka',
    ];
    assignServiceColors([...services].sort());
    const hues = services.map(serviceHue);
    assert.equal(new Set(hues).size, 12);
    for (let i = 0; i < hues.length; i++) {
      assert.ok(apart(hues[i], 0) >= 30, `${services[i]} is not red (${hues[i]})`);
      for (let j = i + 1; j < hues.length; j++) assert.ok(apart(hues[i], hues[j]) >= 26, `${services[i]} and ${services[j]}`);
    }
    assert.notEqual(serviceHue('web-frontend'), serviceHue('payment-svc'));
  });

  it('keeps a service its hue, and hashes later services away from red', () => {
    resetServiceColors();
    assignServiceColors(PALETTE_HUES.map((_, i) => `svc-${i}`));
    const first = serviceHue('svc-3');
    assignServiceColors(['svc-3']);
    assert.equal(serviceHue('svc-3'), first);
    for (let i = 0; i < 500; i++) assert.ok(apart(serviceHue(`late-${i}`), 0) >= 30);
  });
});
