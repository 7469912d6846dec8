/**
 * Loader of the LogHub 2k sample sets used to judge the miner (benchmarks and the accuracy guard
 * test). The data are not part of the repository: they sit beside the clone, in
 * `../shared/data/loghub-2k` relative to the repository root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The ten sets the miner was developed on. */
export const LOGHUB_DATASETS = ['Apache', 'BGL', 'HDFS', 'HPC', 'Hadoop', 'Linux', 'Spark', 'Thunderbird', 'Windows', 'Zookeeper'] as const;

/** A labelled set: each line's message body, its true event id and its true template. */
export interface LabelledSet {
  name: string;
  content: string[];
  eventIds: string[];
  templates: string[];
}

/** `../shared/data/loghub-2k` beside the repository (this file is at dist/src/testing/). */
export function defaultLoghubDir(): string {
  return resolve(fileURLToPath(new URL('../../../../shared/data/loghub-2k', import.meta.url)));
}

/** Parses RFC 4180 CSV (quoted fields with doubled quotes, newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** One set from `<dir>/<name>/<name>_2k.log_structured.csv`, or null when absent. */
export function loadLoghubSet(dir: string, name: string): LabelledSet | null {
  const path = join(dir, name, `${name}_2k.log_structured.csv`);
  if (!existsSync(path)) return null;
  const rows = parseCsv(readFileSync(path, 'utf8'));
  const header = rows[0];
  const contentCol = header.indexOf('Content');
  const eventCol = header.indexOf('EventId');
  const templateCol = header.indexOf('EventTemplate');
  const body = rows.slice(1).filter((r) => r.length === header.length);
  // Fresh flat strings, as a decoder would hand them over (the parser builds ropes).
  const flat = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');
  return {
    name,
    content: body.map((r) => flat(r[contentCol])),
    eventIds: body.map((r) => r[eventCol]),
    templates: body.map((r) => r[templateCol]),
  };
}

/** Every one of the ten sets present under `dir`. */
export function loadLoghubSets(dir: string = defaultLoghubDir()): LabelledSet[] {
  return LOGHUB_DATASETS.map((n) => loadLoghubSet(dir, n)).filter((d): d is LabelledSet => d !== null);
}
