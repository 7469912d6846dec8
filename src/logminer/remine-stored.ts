/**
 * `svc remine`: re-mines the stored raw logs (their 3-day lifetime) under the current masking and
 * rewrites what was derived from them: the hits, the per-minute counts of that range and the
 * templates seen in it. It then records the current masking with a new epoch starting now, so
 * that the logminer raises no `new` alerts for 15 minutes (re-mined templates are not new events).
 *
 * Run it while no logminer writes (the embedded data directory's lock enforces that in all-in-one).
 * A failure half-way leaves the range partly rewritten; running it again completes it.
 */
import { templateText } from '../mining/drain.js';
import { MASKING_VERSION } from '../mining/masking.js';
import { LogMiner, type MinerOptions } from '../mining/miner.js';
import type { Store } from '../model/store.js';
import { oldestAllowedNs } from '../store/lifetimes.js';
import { writeLogminerState } from '../store/logminer-state.js';
import { insertMinuteCounts, type MinuteCountRow } from '../store/template-minutes.js';
import { insertTemplateHits, type TemplateHitRow } from '../store/template-hits.js';
import { upsertTemplates, type TemplateRow } from '../store/templates.js';
import { NS_PER_MINUTE } from '../util/time-units.js';
import { at } from '../util/at.js';

/** Rows read per page: bounded memory whatever the volume. */
const PAGE_ROWS = 20_000;

export interface RemineSummary {
  logs: number;
  templates: number;
  /** Start of the re-mined range (the logs lifetime), Unix ns. */
  fromNs: bigint;
  epochStartMs: number;
}

interface StoredLogLine {
  id: string;
  ts_ns: string;
  trace_id: string;
  span_id: string;
  service_name: string;
  severity_number: number;
  body: string;
}

interface Mined {
  row: TemplateRow;
}

export async function remineStoredLogs(
  store: Store,
  options: MinerOptions,
  nowMs: number,
  onProgress: (logs: number, templates: number) => void = () => undefined,
): Promise<RemineSummary> {
  const fromNs = oldestAllowedNs('logs', nowMs);
  const fromMinute = Number((fromNs + NS_PER_MINUTE - 1n) / NS_PER_MINUTE);
  // Everything derived from the range goes; template_minutes keeps the older seasonal history.
  await store.exec('TRUNCATE TABLE IF EXISTS template_hits');
  await store.exec('DELETE FROM template_minutes WHERE minute >= {from_min:UInt32}', { from_min: fromMinute });
  await store.exec('DELETE FROM templates WHERE last_seen_ns >= {from_ns:Int64}', { from_ns: fromNs });

  const miner = new LogMiner(options);
  const templates = new Map<string, Mined>();
  const seqBase = BigInt(nowMs) * 1_000_000n;
  let seq = 0n;
  let logs = 0;
  // Partial minutes before fromMinute are counted in hits only; their minute row was kept above.
  let lastTs = fromNs - 1n;
  let lastId = '0';
  for (;;) {
    const page = await store.query<StoredLogLine>(
      `SELECT toString(log_id) AS id, ts_ns, trace_id, span_id, service_name, severity_number, body
       FROM logs
       WHERE ts_ns >= {from_ns:Int64} AND (ts_ns > {last_ts:Int64} OR (ts_ns = {last_ts:Int64} AND log_id > {last_id:UInt64}))
       ORDER BY ts_ns, log_id
       LIMIT {page:UInt32}`,
      { from_ns: fromNs, last_ts: lastTs, last_id: lastId, page: PAGE_ROWS },
    );
    if (page.length === 0) break;
    const hits: TemplateHitRow[] = [];
    const minutes = new Map<string, MinuteCountRow>();
    let prevKey = '';
    for (const line of page) {
      const key = `${line.ts_ns}:${line.id}`;
      if (key === prevKey) continue; // a replayed copy not merged yet
      prevKey = key;
      const tsNs = BigInt(line.ts_ns);
      const severity = Number(line.severity_number);
      const cluster = miner.mine(line.service_name, line.body, Number(tsNs / 1_000_000n), severity);
      let mined = templates.get(cluster.id);
      if (mined === undefined) {
        mined = {
          row: {
            templateId: cluster.id,
            service: line.service_name,
            template: '',
            count: 0,
            firstSeenNs: tsNs,
            lastSeenNs: tsNs,
            maxSeverity: 0,
            sample: cluster.sample,
            maskingVersion: MASKING_VERSION,
            signature: cluster.signature,
            overflow: cluster.leaf === null,
            createdSeq: seqBase + seq++,
            updatedAtMs: nowMs,
          },
        };
        templates.set(cluster.id, mined);
      }
      const r = mined.row;
      r.count++;
      if (tsNs < r.firstSeenNs) r.firstSeenNs = tsNs;
      if (tsNs > r.lastSeenNs) r.lastSeenNs = tsNs;
      if (severity > r.maxSeverity) r.maxSeverity = severity;
      hits.push({
        tsNs,
        templateId: cluster.id,
        service: line.service_name,
        logId: line.id,
        traceId: line.trace_id,
        spanId: line.span_id,
        severityNumber: severity,
      });
      const minute = Number(tsNs / NS_PER_MINUTE);
      if (minute >= fromMinute) {
        const mk = `${cluster.id}:${minute}`;
        const m = minutes.get(mk);
        if (m === undefined) minutes.set(mk, { service: line.service_name, templateId: cluster.id, minute, hits: 1 });
        else m.hits++;
      }
      logs++;
    }
    await insertTemplateHits(store, hits);
    await insertMinuteCounts(store, [...minutes.values()]);
    const last = at(page, page.length - 1);
    lastTs = BigInt(last.ts_ns);
    lastId = last.id;
    onProgress(logs, templates.size);
    if (page.length < PAGE_ROWS) break;
  }
  // Texts as they stand after the whole range (templates only generalize while mining).
  const clusters = new Map<string, string>();
  for (const service of miner.serviceNames()) {
    const { tree } = miner.serviceState(service);
    for (const c of tree.clusters) clusters.set(c.id, templateText(c));
    if (tree.overflow !== null) clusters.set(tree.overflow.id, templateText(tree.overflow));
  }
  const rows = [...templates.values()].map(({ row }) => ({ ...row, template: clusters.get(row.templateId) ?? row.template }));
  for (let i = 0; i < rows.length; i += PAGE_ROWS) await upsertTemplates(store, rows.slice(i, i + PAGE_ROWS));
  await writeLogminerState(store, { maskingVersion: MASKING_VERSION, keepHttpStatus: options.keepHttpStatus, epochStartMs: nowMs }, nowMs);
  return { logs, templates: rows.length, fromNs, epochStartMs: nowMs };
}
