/**
 * Splits a thread's V8 CPU profile (`node --cpu-prof`) into svc's stages: each sample goes to the
 * innermost frame of the stack that lies in one of svc's rooms (dist/src/<room>/), so a helper in
 * util/ or a package called from the assembler counts for the assembler; a stack with no svc frame
 * goes to the package it runs in (grpc-js, fastify: transport) or to V8's own entries (garbage
 * collection, native code).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Rooms that are helpers of whoever calls them: a sample there goes to the caller's room. */
const HELPER_ROOMS = new Set(['util', 'model', 'config']);

/** The stage a room's code belongs to in the breakdown. */
const STAGE_OF_ROOM: Record<string, string> = {
  ingest: 'ingest (requests, admission, records)',
  otlp: 'decode (OTLP)',
  bus: 'bus (append, fsync waits, consumer reads)',
  writer: 'writer (main thread: batching)',
  store: 'store driver (main thread)',
  assembler: 'assembler + analysis',
  analysis: 'assembler + analysis',
  logminer: 'logminer + mining',
  mining: 'logminer + mining',
  notifier: 'notifier',
  api: 'API + recorder',
  recorder: 'API + recorder',
  cli: 'other',
};

function stageOfFrame(frame: ProfileNode['callFrame']): string | undefined {
  const room = /\/dist\/src\/([a-z-]+)\//.exec(frame.url)?.[1];
  if (room === undefined || HELPER_ROOMS.has(room)) return undefined;
  return STAGE_OF_ROOM[room] ?? 'other';
}

function stageWithoutSvcFrame(leaf: ProfileNode['callFrame'], urls: readonly string[]): string {
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle';
  if (leaf.functionName === '(program)') return 'native (V8, libuv, chDB calls)';
  if (urls.some((url) => url.includes('@grpc/') || url.includes('fastify') || url.includes('undici') || url.includes('node:http') || url.includes('node:net')))
    return 'transport (gRPC, HTTP servers)';
  if (urls.some((url) => url.includes('prom-client'))) return 'API + recorder';
  return 'other';
}

/** Busy milliseconds per stage of one profile (idle excluded). */
export function profileStages(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOfNode = new Map<number, string>();
  const stageOf = (id: number): string => {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    const urls: string[] = [];
    let stage: string | undefined;
    for (let at: number | undefined = id; at !== undefined && stage === undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      stage = stageOfFrame(frame);
      urls.push(frame.url);
    }
    stage ??= stageWithoutSvcFrame(byId.get(id)!.callFrame, urls);
    stageOfNode.set(id, stage);
    return stage;
  };
  const ms = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const stage = stageOf(profile.samples[i]!);
    if (stage === 'idle') continue;
    ms.set(stage, (ms.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return ms;
}

/** The main thread's profile in a --cpu-prof directory (Node's thread id 0 in the file name), split into stages. */
export function mainThreadStages(dir: string): Map<string, number> {
  const file = readdirSync(dir).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (file === undefined) throw new Error(`no main-thread CPU profile in ${dir}`);
  return profileStages(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
}
