/**
 * The logminer's store modules against real chDB (one temp data directory for this file):
 * templates, template hits, minute counts and coverage, log alerts, silence settings and the
 * masking state, each read back the way the logminer and the API rely on.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LogAlert as MinedAlert } from '../mining/alert-types.js';
import type { Store } from '../model/store.js';
import { createStore } from './create-store.js';
import { insertAlertVersions, readLatestSpikes, readUnpublishedAlerts, storedToMined } from './log-alerts.js';
import { readLogminerState, writeLogminerState } from './logminer-state.js';
import { migrate } from './migrate.js';
import { insertSilence, readSilences } from './silence.js';
import { insertTemplateHits, readExampleTraceIds } from './template-hits.js';
import { insertMinuteCounts, readCoverage, readMinuteCounts, readTemplateMinuteCounts } from './template-minutes.js';
import { readAllTemplates, upsertTemplates, type TemplateRow } from './templates.js';
import { PermanentError } from '../util/retry.js';

const NOW_MS = Date.now();
const MINUTE_NS = 60_000_000_000n;
const nsAgo = (minutes: number): bigint => BigInt(NOW_MS) * 1_000_000n - BigInt(minutes) * MINUTE_NS;

const dir = mkdtempSync(join(tmpdir(), 'svc-logminer-tables-'));
let store: Store;
before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_lm_tables' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
});
after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function template(id: string, over: Partial<TemplateRow> = {}): TemplateRow {
  return {
    templateId: id,
    service: 'api',
    template: 'user <*> logged in',
    count: 1,
    firstSeenNs: nsAgo(10),
    lastSeenNs: nsAgo(1),
    maxSeverity: 9,
    sample: 'user 7 logged in',
    maskingVersion: 1,
    signature: 'user <*> logged in',
    overflow: false,
    createdSeq: 5n,
    updatedAtMs: 1,
    ...over,
  };
}

describe('templates', () => {
  it('keeps the newest version of each template, returns them in creation order and drops expired ones', async () => {
    await upsertTemplates(store, [
      template('18446744073709551615', { createdSeq: 9n, count: 3 }),
      template('18446744073709551615', { createdSeq: 9n, count: 4, template: 'user <*> logged <*>', updatedAtMs: 2 }),
      template('7', { createdSeq: 2n, service: 'db', overflow: true, template: '<*>', signature: '<*>' }),
      template('8', { lastSeenNs: nsAgo(31 * 24 * 60) }),
    ]);
    const rows = await readAllTemplates(store, NOW_MS);
    assert.deepEqual(
      rows.map((r) => [r.templateId, r.count, r.template, r.overflow]),
      [
        ['7', 1, '<*>', true],
        ['18446744073709551615', 4, 'user <*> logged <*>', false],
      ],
    );
    assert.equal(rows[1].firstSeenNs, nsAgo(10));
    assert.equal(rows[1].createdSeq, 9n);
    await assert.rejects(upsertTemplates(store, [template('12a')]), PermanentError);
  });
});

describe('template hits', () => {
  it('gives the newest distinct example traces of a template inside a range', async () => {
    const hit = (minutesAgo: number, traceId: string, logId: string) => ({
      tsNs: nsAgo(minutesAgo),
      templateId: '55',
      service: 'api',
      logId,
      traceId,
      spanId: '',
      severityNumber: 9,
    });
    await insertTemplateHits(store, [
      hit(9, 'a'.repeat(32), '1'),
      hit(5, 'b'.repeat(32), '2'),
      hit(4, '', '3'),
      hit(3, 'a'.repeat(32), '4'),
      hit(1, 'c'.repeat(32), '5'),
    ]);
    assert.deepEqual(await readExampleTraceIds(store, { service: 'api', templateId: '55' }, nsAgo(10), nsAgo(2), 5), ['a'.repeat(32), 'b'.repeat(32)]);
    assert.deepEqual(await readExampleTraceIds(store, { service: 'api', templateId: '55' }, nsAgo(10), nsAgo(0), 1), ['c'.repeat(32)]);
    assert.deepEqual(await readExampleTraceIds(store, { service: 'other', templateId: '55' }, nsAgo(10), nsAgo(0), 5), []);
  });

  it('stores template and log ids of every size exactly, and refuses ids that are not unsigned decimals', async () => {
    const ids = ['0', '9007199254740993', '9223372036854775808', '18446744073709551615'];
    await insertTemplateHits(
      store,
      ids.map((id, i) => ({
        tsNs: nsAgo(1),
        templateId: id,
        service: 'ids',
        logId: ids[ids.length - 1 - i] ?? '',
        traceId: '',
        spanId: '',
        severityNumber: 300,
      })),
    );
    const stored = await store.query<{ tid: string; lid: string; sev: number }>(
      'SELECT toString(template_id) AS tid, toString(log_id) AS lid, severity_number AS sev FROM template_hits WHERE service = {service:String} ORDER BY template_id',
      { service: 'ids' },
    );
    assert.deepEqual(
      stored.map((r) => [r.tid, r.lid, Number(r.sev)]),
      ids.map((id, i) => [id, ids[ids.length - 1 - i], 255]),
    );
    for (const bad of [
      { templateId: '-1', logId: '1' },
      { templateId: '1', logId: 'x' },
      { templateId: '1', logId: '' },
    ]) {
      await assert.rejects(insertTemplateHits(store, [{ tsNs: nsAgo(1), service: 'ids', traceId: '', spanId: '', severityNumber: 1, ...bad }]), PermanentError);
    }
  });
});

describe('template minutes', () => {
  it('sums deltas per template and minute, and reports the minutes each service logged in', async () => {
    // Recent minutes: rows past the 8-day TTL may be dropped as soon as they are written.
    const M = Math.floor(NOW_MS / 60_000) - 2000;
    await insertMinuteCounts(store, [
      { service: 'api', templateId: '1', minute: M, hits: 2 },
      { service: 'api', templateId: '1', minute: M, hits: 3 },
      { service: 'api', templateId: '2', minute: M + 1, hits: 1 },
      { service: 'db', templateId: '3', minute: M + 2, hits: 4 },
      { service: 'api', templateId: '1', minute: M + 5, hits: 1 },
    ]);
    const counts = (await readMinuteCounts(store, ['api'], M, M + 5)).map((r) => [r.templateId, r.minute, r.hits]).sort();
    assert.deepEqual(counts, [
      ['1', M, 5],
      ['2', M + 1, 1],
    ]);
    assert.deepEqual(
      (await readTemplateMinuteCounts(store, ['3'], M - 10, M + 10)).map((r) => [r.service, r.minute, r.hits]),
      [['db', M + 2, 4]],
    );
    const coverage = await readCoverage(store, ['api', 'db', 'none'], M, M + 3);
    assert.deepEqual([...coverage].map(([s, m]) => [s, [...m].sort()]).sort(), [
      ['api', [M, M + 1]],
      ['db', [M + 2]],
    ]);
    assert.deepEqual(await readMinuteCounts(store, [], M - 10, M + 10), []);
  });
});

describe('log alerts', () => {
  const alert = (id: string, over: Partial<MinedAlert> = {}): MinedAlert => ({
    alert_id: id,
    kind: 'spike',
    template_id: '77',
    service: 'api',
    template: 'user <*> logged in',
    started_at_ns: nsAgo(20),
    last_at_ns: nsAgo(10),
    window_count: 30,
    peak_count: 40,
    baseline_per_window: 1.5,
    example_traces: [{ trace_id: 'd'.repeat(32), story_id: null }],
    baseline_day: 2,
    ...over,
  });

  it('reads the newest unpublished versions oldest first and the latest spike of each template', async () => {
    await insertAlertVersions(store, [
      { alert: alert('00000000000000a1'), published: false, updatedAtMs: 1 },
      { alert: alert('00000000000000a1', { last_at_ns: nsAgo(5) }), published: true, updatedAtMs: 2 },
      {
        alert: alert('00000000000000a2', { started_at_ns: nsAgo(8), last_at_ns: nsAgo(3), kind: 'new', baseline_day: undefined }),
        published: false,
        updatedAtMs: 1,
      },
      { alert: alert('00000000000000a3', { started_at_ns: nsAgo(30), last_at_ns: nsAgo(25), template_id: '78' }), published: false, updatedAtMs: 1 },
    ]);
    const unpublished = await readUnpublishedAlerts(store, nsAgo(60), 10);
    assert.deepEqual(
      unpublished.map((r) => r.alert_id),
      ['00000000000000a3', '00000000000000a2'],
    );
    assert.deepEqual(
      (await readUnpublishedAlerts(store, nsAgo(60), 1)).map((r) => r.alert_id),
      ['00000000000000a3'],
    );
    assert.deepEqual(await readUnpublishedAlerts(store, nsAgo(2), 10), []);
    const spikes = await readLatestSpikes(store, nsAgo(60));
    assert.deepEqual(spikes.map((r) => [r.a_template_id, r.alert_id]).sort(), [
      ['77', '00000000000000a1'],
      ['78', '00000000000000a3'],
    ]);
    const mined = storedToMined(spikes.find((r) => r.alert_id === '00000000000000a1')!);
    assert.deepEqual(mined, { ...alert('00000000000000a1', { last_at_ns: nsAgo(5) }) });
    await assert.rejects(insertAlertVersions(store, [{ alert: alert('not-hex'), published: false, updatedAtMs: 1 }]), PermanentError);
  });
});

describe('silence settings and logminer state', () => {
  it('keeps the newest silence setting per template', async () => {
    await insertSilence(store, '9', { enabled: true, minutes: 5 }, 1);
    await insertSilence(store, '9', { enabled: false, minutes: 60 }, 2);
    await insertSilence(store, '10', { enabled: true, minutes: 1440 }, 1);
    assert.deepEqual([...(await readSilences(store))].sort(), [
      ['10', { enabled: true, minutes: 1440 }],
      ['9', { enabled: false, minutes: 60 }],
    ]);
    assert.deepEqual([...(await readSilences(store, ['10', '11']))], [['10', { enabled: true, minutes: 1440 }]]);
    assert.deepEqual(await readSilences(store, []), new Map());
  });

  it('has no state before the first write, then the newest one', async () => {
    assert.equal(await readLogminerState(store), null);
    await writeLogminerState(store, { maskingVersion: 1, keepHttpStatus: true, epochStartMs: 0 }, 1);
    await writeLogminerState(store, { maskingVersion: 2, keepHttpStatus: false, epochStartMs: NOW_MS }, 2);
    assert.deepEqual(await readLogminerState(store), { maskingVersion: 2, keepHttpStatus: false, epochStartMs: NOW_MS });
  });
});
