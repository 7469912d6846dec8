/**
 * Every page of the app at 800 px wide in chromium, over a running all-in-one holding stories,
 * traces and logs sent with the OpenTelemetry SDK: no page scrolls sideways, and the service
 * colours follow the rule (different services never share a colour, none is the error red).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { screenshot } from '../../testing/browser.js';
import { getJson } from '../../testing/http.js';
import { buildSampleLogs, exportLogs, logExporter } from '../../testing/otel.js';
import { until } from '../../testing/sdk-trace.js';
import { FAST_STORIES_ENV, namesFor, sendFailures, type Failures } from './scenario.js';
import { expectEventually, scriptErrors, startBrowserApp, type BrowserApp, type DomElement } from './support.js';

const names = namesFor(randomBytes(3).toString('hex'));
let app: BrowserApp;
let failures: Failures;
let templateId = '';

interface Box extends DomElement {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { right: number; width: number };
  tagName: string;
  className: string;
}

before(async () => {
  app = await startBrowserApp('layout', { ...FAST_STORIES_ENV, SVC__LOGMINER__FLUSH_MS: '100' });
  failures = await sendFailures(app.svc, names);
  const exporter = logExporter('http-protobuf', app.svc, false);
  await exportLogs(exporter, buildSampleLogs(names.payments, Date.now(), undefined, 'with-a-rather-long-identifier-that-should-wrap-0123456789abcdef'));
  await exporter.shutdown();
  await until('a mined template', async () => {
    const rows = (await getJson(`${app.svc.apiUrl}/api/v1/log-templates?service=${names.payments}`)).body as { template_id: string }[];
    templateId = rows[0]?.template_id ?? '';
    return templateId === '' ? undefined : true;
  });
});

after(async () => {
  await app?.close();
});

/** How far the page is wider than the viewport, and the elements sticking out past its right edge. */
async function overflow(page: Page): Promise<{ extraPx: number; culprits: string[] }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { documentElement: Box; querySelectorAll(s: string): ArrayLike<Box> } }).document;
    const root = doc.documentElement;
    const culprits: string[] = [];
    for (const element of Array.from(doc.querySelectorAll('body *'))) {
      if (element.getBoundingClientRect().right > root.clientWidth + 1 && culprits.length < 5)
        culprits.push(`${element.tagName.toLowerCase()}.${String(element.className)}`);
    }
    return { extraPx: root.scrollWidth - root.clientWidth, culprits };
  });
}

describe('The app at 800 px', () => {
  test('no page scrolls sideways', async () => {
    const page = await app.page();
    await page.setViewportSize({ width: 800, height: 900 });
    const pages = [
      '/',
      `/stories/${failures.checkoutIds[0]}`,
      '/traces',
      `/traces/${failures.checkoutIds[0]}`,
      '/map',
      '/logs/alerts',
      '/logs/templates',
      `/logs/templates/${templateId}`,
      `/logs/explore?service=${names.payments}`,
      '/pipeline',
    ];
    const wide: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await expectEventually(`${path} loaded`, () => page.locator('main .loading').count(), 0, 60_000);
      const { extraPx, culprits } = await overflow(page);
      if (extraPx > 0) {
        wide.push(`${path}: ${extraPx}px too wide (${culprits.join(', ')})`);
        await screenshot(page, `wide-${path.replace(/[^a-z0-9]+/gi, '-')}`);
      }
    }
    assert.deepEqual(wide, []);
    await page.close();
  });

  test('services on one page never share a colour, and none is the error red', async () => {
    const page = await app.page();
    await page.goto(`/traces/${failures.checkoutIds[0]}`);
    await page.locator('.service-tag .swatch').first().waitFor();
    const colours = await page.locator('.service-tag').evaluateAll((tags: DomElement[]) =>
      tags.map((tag) => {
        const swatch = tag.querySelector('.swatch') as unknown as { style: { background: string } } | null;
        return [
          tag.innerText.trim(),
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(swatch).backgroundColor,
        ];
      }),
    );
    const byService = new Map(colours.map(([service, colour]) => [service, colour]));
    assert.ok(byService.size >= 3, `services seen: ${[...byService.keys()].join(', ')}`);
    assert.equal(new Set(byService.values()).size, byService.size, JSON.stringify([...byService]));
    const errorRed = await page.evaluate(() =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(n: string): string }; document: { documentElement: unknown } })
        .getComputedStyle((globalThis as unknown as { document: { documentElement: unknown } }).document.documentElement)
        .getPropertyValue('--error')
        .trim(),
    );
    for (const [service, colour] of byService) {
      const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      // Red-ish: red is the largest channel and the hue lies within 25 degrees of 0.
      const hue =
        max === min
          ? 0
          : max === r
            ? (60 * ((g - b) / (max - min)) + 360) % 360
            : max === g
              ? 60 * ((b - r) / (max - min)) + 120
              : 60 * ((r - g) / (max - min)) + 240;
      assert.ok(max === min || (hue > 25 && hue < 335), `${service} is drawn red (${colour}, error red ${errorRed})`);
    }
    await page.close();
  });

  test('no page threw a script error', () => {
    assert.deepEqual(scriptErrors(app), []);
  });
});
