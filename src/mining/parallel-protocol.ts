/** Messages between the parallel miner and its workers (structured-clone friendly). */
import type { TemplateInfo } from './miner.js';
import type { MinerSnapshot } from './snapshot.js';

export type WorkerRequest =
  | { kind: 'mine'; seq: number; services: string[]; lines: string[]; timesMs: Float64Array; severities: Uint8Array }
  | { kind: 'templates'; seq: number }
  | { kind: 'snapshot'; seq: number }
  | { kind: 'restore'; seq: number; snapshot: MinerSnapshot };

export type WorkerReply =
  | { kind: 'mine'; seq: number; ids: string[]; texts: [string, string][] }
  | { kind: 'templates'; seq: number; templates: TemplateInfo[] }
  | { kind: 'snapshot'; seq: number; snapshot: MinerSnapshot }
  | { kind: 'restore'; seq: number };
