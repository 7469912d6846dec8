/**
 * Prometheus text exposition format (0.0.4, and the sample lines of OpenMetrics) to samples.
 * Comments, HELP and TYPE lines carry nothing the recorder stores; timestamps are ignored because
 * every sample of a tick is stamped with the tick's time.
 */

import type { MetricSample } from './sample.js';

export interface ParsedText {
  samples: MetricSample[];
  /** Lines that were not comments and did not parse; the caller reports them. */
  malformedLines: number;
  /** Samples past `maxSamples` that were not returned. */
  droppedSamples: number;
  /** Samples whose value was NaN or infinite (not stored). */
  nonFiniteSamples: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** Parses `text`, keeping at most `maxSamples` samples. */
export function parsePrometheusText(text: string, maxSamples: number): ParsedText {
  const result: ParsedText = { samples: [], malformedLines: 0, droppedSamples: 0, nonFiniteSamples: 0 };
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const parsed = parseSampleLine(line);
    if (parsed === undefined) {
      result.malformedLines++;
    } else if (!Number.isFinite(parsed.value)) {
      result.nonFiniteSamples++;
    } else if (result.samples.length >= maxSamples) {
      result.droppedSamples++;
    } else {
      result.samples.push(parsed);
    }
  }
  return result;
}

/** `name{label="value",...} value [timestamp]`, or undefined when the line does not parse. */
export function parseSampleLine(line: string): MetricSample | undefined {
  const name = NAME.exec(line);
  if (name === null) return undefined;
  let rest = line.slice(name[0].length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const end = parseLabels(rest, labels);
    if (end < 0) return undefined;
    rest = rest.slice(end);
  }
  // An OpenMetrics exemplar (` # {trace_id="..."} 0.5`) follows the value; it is not a sample.
  const exemplar = rest.indexOf(' # ');
  if (exemplar >= 0) rest = rest.slice(0, exemplar);
  const fields = rest.trim().split(/\s+/);
  const [first] = fields;
  if (first === undefined || fields.length > 2 || first === '') return undefined;
  const value = parseValue(first);
  if (value === undefined) return undefined;
  return { metric: name[0], labels, value };
}

/** Fills `labels` from `{...}` at the start of `text`; returns the index after `}` or -1. */
function parseLabels(text: string, labels: Record<string, string>): number {
  let i = 1;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '}') return i + 1;
    const name = LABEL_NAME.exec(text.slice(i));
    if (name === null) return -1;
    i += name[0].length;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '=') return -1;
    i++;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '"') return -1;
    i++;
    let value = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) return -1;
      if (c === '"') break;
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else return -1;
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    i++;
    labels[name[0]] = value;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') return -1;
  }
}

/** A Go-style float, including `NaN`, `+Inf`, `-Inf` (any case: prom-client writes `Nan`). */
function parseValue(text: string): number | undefined {
  const lower = text.toLowerCase();
  if (lower === 'nan') return Number.NaN;
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}
