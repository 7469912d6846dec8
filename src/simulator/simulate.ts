/**
 * The simulator's engine: Poisson arrivals of requests through the gateway, each played through the
 * application model into spans and logs, with the injected faults applied to the traces that start
 * while they are active. Pure and deterministic: the same seed, rate, faults and window give the same
 * rows, and windows compose (generating [a, b) then [b, c) gives what [a, c) gives), because every
 * second of traffic and every minute of noise draws from its own seeded stream.
 */
import type { AttrPair, LogRow, SignalBatch, SpanKind, SpanRow } from '../model/signals.js';
import { logIdOf } from '../otlp/log-id.js';
import { checkFault, DEFAULT_INTENSITY, type Fault } from './faults.js';
import {
  SEVERITY_NUMBER,
  type AppModel,
  type ChronicError,
  type LogLine,
  type OperationDef,
  type PeerCall,
  type PeerDef,
  type ServiceCall,
  type ServiceDef,
  type Severity,
  type Stage,
  type Step,
} from './model.js';
import { Rng } from './random.js';
import { shopModel } from './shop.js';

export interface SimulatorOptions {
  seed: number;
  /** Mean request (trace) rate; the actual rate drifts smoothly by up to ±20 % over tens of minutes. */
  tracesPerSec: number;
  faults?: Fault[];
  /** The application; default the shop of shop.ts. */
  model?: AppModel;
}

export interface Simulator {
  readonly model: AppModel;
  /** Every trace (spans and logs) starting in [fromMs, toMs), and the background jobs' logs in it. */
  generate(fromMs: number, toMs: number): SignalBatch;
  /** The mean rate at a moment, traces/s (the drift without the Poisson noise). */
  rateAt(ms: number): number;
}

/** Chance that a span's self time holds a stop-the-world pause. */
const PAUSE_CHANCE = 0.002;
/** Spread of one operation's self time around its median (lognormal sigma). */
const SELF_SIGMA = 0.35;
/** Spread of the per-minute, per-service slowness factor (lognormal sigma). */
const MINUTE_SIGMA = 0.08;
const SCOPE_VERSION = '1.0.0';

interface Failure {
  message: string;
  exceptionType: string;
}

interface StepResult {
  endMs: number;
  failure?: Failure;
}

interface ServiceInfo {
  def: ServiceDef;
  index: number;
  resource: AttrPair[];
  scopeName: string;
  operations: Map<string, OperationDef>;
}

/** One trace in the making. */
interface TraceState {
  rng: Rng;
  traceId: string;
  baseNs: bigint;
  minute: number;
  spans: SpanRow[];
  logs: LogRow[];
  /** Faults active for this trace, by target. */
  faults: Map<string, Fault[]>;
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const model = options.model ?? shopModel();
  const faults = options.faults ?? [];
  for (const fault of faults) checkFault(fault, model);
  if (!(options.tracesPerSec >= 0)) throw new Error('tracesPerSec must be 0 or more');
  const seed = options.seed >>> 0;

  const services = new Map<string, ServiceInfo>();
  model.services.forEach((def, index) => {
    services.set(def.name, {
      def,
      index,
      resource: [
        ['service.name', def.name],
        ['service.namespace', 'shop'],
        ['service.version', `1.${index % 5}.${(index * 7) % 10}`],
        ['service.instance.id', `${def.name}-${new Rng(seed, index).hex(8)}`],
        ['telemetry.sdk.language', def.language],
        ['deployment.environment', 'demo'],
      ],
      scopeName: `shop.${def.name}`,
      operations: new Map(def.operations.map((operation) => [operation.name, operation])),
    });
  });
  const peers = new Map<string, PeerDef & { index: number }>(model.peers.map((peer, index) => [peer.name, { ...peer, index: model.services.length + index }]));
  const gateway = services.get(model.gateway);
  if (gateway === undefined) throw new Error(`the gateway ${model.gateway} is not one of the model's services`);
  const rootOperations = model.requestTypes.map((type): OperationDef => ({
    name: model.rootSpanName,
    selfMs: 1,
    stages: [...model.gatewayStages, { type: 'call', service: type.entry.service, operation: type.entry.operation, onError: 'propagate' }],
    logs: model.gatewayLogs,
  }));
  const cumulativeWeights: number[] = [];
  let totalWeight = 0;
  for (const type of model.requestTypes) cumulativeWeights.push((totalWeight += type.weight));

  const phaseRng = new Rng(seed, 0x5eed);
  const phaseA = phaseRng.between(0, 2 * Math.PI);
  const phaseB = phaseRng.between(0, 2 * Math.PI);
  const rateAt = (ms: number) => {
    const secs = ms / 1000;
    return options.tracesPerSec * (1 + 0.12 * Math.sin((2 * Math.PI * secs) / 2220 + phaseA) + 0.08 * Math.sin((2 * Math.PI * secs) / 1380 + phaseB));
  };

  const minuteNoise = new Map<number, number>();
  /** Slowness of a service or peer during one minute: the same for every span of that minute. */
  const noiseOf = (index: number, minute: number): number => {
    const key = minute * 1024 + index;
    let factor = minuteNoise.get(key);
    if (factor === undefined) {
      if (minuteNoise.size > 200_000) minuteNoise.clear();
      factor = Math.exp(MINUTE_SIGMA * new Rng(seed, 0x6e6f, minute, index).normal());
      minuteNoise.set(key, factor);
    }
    return factor;
  };

  const activeFaults = (startMs: number): Map<string, Fault[]> => {
    const active = new Map<string, Fault[]>();
    for (const fault of faults) {
      if (startMs < fault.fromMs || startMs >= fault.toMs) continue;
      const list = active.get(fault.service);
      if (list === undefined) active.set(fault.service, [fault]);
      else list.push(fault);
    }
    return active;
  };
  const faultOf = (trace: TraceState, service: string, kind: Fault['kind'], operation?: string): Fault | undefined =>
    trace.faults
      .get(service)
      ?.find((fault) => fault.kind === kind && (fault.operation === undefined || operation === undefined || fault.operation === operation));
  const intensityOf = (fault: Fault) => fault.intensity ?? DEFAULT_INTENSITY[fault.kind];

  const toNs = (trace: TraceState, offsetMs: number) => trace.baseNs + BigInt(Math.round(offsetMs * 1e6));

  const emitLog = (trace: TraceState, service: ServiceInfo, spanId: string, atMs: number, severity: Severity, body: string, attrs: AttrPair[] = []) => {
    const tsNs = toNs(trace, atMs);
    const row: Omit<LogRow, 'logId'> = {
      tsNs,
      observedTsNs: tsNs,
      traceId: trace.traceId,
      spanId,
      serviceName: service.def.name,
      severityNumber: SEVERITY_NUMBER[severity],
      severityText: severity,
      body,
      attrs,
      resource: service.resource,
      scopeName: service.scopeName,
      scopeVersion: SCOPE_VERSION,
    };
    trace.logs.push({ logId: logIdOf(row), ...row });
  };

  const pushSpan = (
    trace: TraceState,
    service: ServiceInfo,
    spanId: string,
    parentSpanId: string,
    name: string,
    kind: SpanKind,
    startMs: number,
    endMs: number,
    attrs: AttrPair[],
    failure?: Failure,
    exceptionEvent = false,
  ) => {
    const endNs = toNs(trace, endMs);
    trace.spans.push({
      traceId: trace.traceId,
      spanId,
      parentSpanId,
      serviceName: service.def.name,
      name,
      kind,
      startNs: toNs(trace, startMs),
      endNs,
      status: failure === undefined ? 'unset' : 'error',
      statusMessage: failure?.message ?? '',
      attrs,
      resource: service.resource,
      events:
        failure !== undefined && exceptionEvent
          ? [
              {
                tsNs: endNs,
                name: 'exception',
                attrs: [
                  ['exception.type', failure.exceptionType],
                  ['exception.message', failure.message],
                  ['exception.escaped', true],
                ],
              },
            ]
          : [],
      scopeName: service.scopeName,
      scopeVersion: SCOPE_VERSION,
    });
  };

  const chronic = (rng: Rng, error: ChronicError | undefined): Failure | undefined =>
    error !== undefined && rng.chance(error.rate) ? { message: error.message(rng), exceptionType: error.exceptionType } : undefined;

  /** Executes one operation of a service as its SERVER span (the root when parentSpanId is ''). */
  const serve = (trace: TraceState, service: ServiceInfo, operation: OperationDef, startMs: number, parentSpanId: string, rootPath?: string): StepResult => {
    const { rng } = trace;
    const spanId = rng.hex(16);
    const name = service.def.name;
    const cpu = faultOf(trace, name, 'cpu');
    const slowness = noiseOf(service.index, trace.minute) * (cpu === undefined ? 1 : intensityOf(cpu));
    let selfMs = rng.lognormal(operation.selfMs, SELF_SIGMA) * slowness;
    const logsAt: [atMs: number, severity: Severity, body: string][] = [];
    if (rng.chance(PAUSE_CHANCE)) {
      const pauseMs = rng.between(100, 400);
      selfMs += pauseMs;
      logsAt.push([startMs + selfMs * 0.6, 'WARN', `GC pause of ${Math.round(pauseMs)} ms (young generation), heap ${rng.int(40, 95)}% used`]);
    }
    let cursor = startMs + selfMs * 0.6;
    let failure: Failure | undefined;
    let ownFailure: (Failure & { event: boolean }) | undefined;
    for (const stage of operation.stages) {
      const result = runStage(trace, service, stage, cursor, spanId, slowness, logsAt);
      cursor = result.endMs;
      if (result.failure !== undefined) {
        failure = result.failure;
        break;
      }
    }
    if (failure === undefined && operation.chronicError !== undefined) {
      const own = chronic(rng, operation.chronicError);
      if (own !== undefined) {
        ownFailure = { ...own, event: operation.chronicError.exceptionEvent };
        cursor += operation.chronicError.extraMs ?? 0;
      }
    }
    const returnValue = faultOf(trace, name, 'return_value', operation.name);
    if (failure === undefined && ownFailure === undefined && returnValue !== undefined && rng.chance(intensityOf(returnValue))) {
      const field = rng.pick(['price', 'quantity', 'total', 'count', 'status']);
      ownFailure = { message: `invalid return value from ${name}: ${field}=-1`, exceptionType: 'java.lang.IllegalStateException', event: rng.chance(0.5) };
    }
    const endMs = cursor + selfMs * 0.4;
    const spanMs = endMs - startMs;
    const exception = faultOf(trace, name, 'exception', operation.name);
    const caught = exception !== undefined && rng.chance(intensityOf(exception));
    operation.logs.forEach((line: LogLine, index) => {
      if (caught && index === 0) return;
      if (line.probability >= 1 || rng.chance(line.probability)) logsAt.push([startMs + spanMs * rng.between(0.1, 0.95), line.severity, line.text(rng)]);
    });
    if (caught) {
      const key = rng.hex(8);
      logsAt.push([startMs + spanMs * 0.5, 'WARN', `Caught java.lang.IllegalStateException in ${operation.name}: falling back to cached value for ${key}`]);
      logsAt.push([startMs + spanMs * 0.7, 'INFO', `Fallback path served ${operation.name} from cache (entry age ${rng.int(1, 600)} s)`]);
    }
    if (ownFailure !== undefined) logsAt.push([endMs, 'ERROR', `${operation.name} failed: ${ownFailure.message}`]);
    const result = ownFailure ?? failure;
    pushSpan(
      trace,
      service,
      spanId,
      parentSpanId,
      operation.name,
      'server',
      startMs,
      endMs,
      cachedServerAttrs(service, operation, result !== undefined, rootPath),
      result,
      ownFailure?.event ?? false,
    );
    for (const [atMs, severity, body] of logsAt) emitLog(trace, service, spanId, atMs, severity, body);
    return { endMs, failure: result };
  };

  /** Runs a stage's steps side by side from startMs; the stage ends with its slowest step. */
  const runStage = (
    trace: TraceState,
    caller: ServiceInfo,
    stage: Stage,
    startMs: number,
    parentSpanId: string,
    slowness: number,
    logsAt: [number, Severity, string][],
  ): StepResult => {
    const steps: Step[] = Array.isArray(stage) ? stage : [stage];
    let endMs = startMs;
    let failure: Failure | undefined;
    for (const step of steps) {
      if (step.probability !== undefined && !trace.rng.chance(step.probability)) continue;
      const copies = step.type === 'call' && step.copies !== undefined ? trace.rng.int(step.copies[0], step.copies[1]) : 1;
      for (let copy = 0; copy < copies; copy++) {
        let result: StepResult;
        if (step.type === 'internal') {
          const internalMs = trace.rng.lognormal(step.medianMs, 0.3) * slowness;
          pushSpan(trace, caller, trace.rng.hex(16), parentSpanId, step.name, 'internal', startMs, startMs + internalMs, []);
          result = { endMs: startMs + internalMs };
        } else {
          result =
            step.type === 'call'
              ? callService(trace, caller, step, startMs, parentSpanId, logsAt)
              : callPeer(trace, caller, step, startMs, parentSpanId, logsAt);
          if (result.failure !== undefined) {
            if (step.onError === 'propagate') failure ??= result.failure;
            else
              logsAt.push([
                result.endMs,
                'WARN',
                `${step.type === 'call' ? step.service : step.peer} unavailable, continuing without it: ${result.failure.message}`,
              ]);
          }
        }
        if (result.endMs > endMs) endMs = result.endMs;
      }
    }
    return { endMs, failure };
  };

  const callService = (
    trace: TraceState,
    caller: ServiceInfo,
    step: ServiceCall,
    startMs: number,
    parentSpanId: string,
    logsAt: [number, Severity, string][],
  ): StepResult => {
    const { rng } = trace;
    const callee = services.get(step.service);
    if (callee === undefined) throw new Error(`${caller.def.name} calls unknown service ${step.service}`);
    const operation = callee.operations.get(step.operation);
    if (operation === undefined) throw new Error(`${caller.def.name} calls unknown operation ${step.service} ${step.operation}`);
    const spanId = rng.hex(16);
    const attrs = cachedClientAttrs(callee, operation);
    let wireMs = Math.min(3, Math.max(0.3, rng.lognormal(1, 0.5)));
    const delay = faultOf(trace, callee.def.name, 'network_delay');
    if (delay !== undefined) wireMs += intensityOf(delay) * rng.between(0.8, 1.2);
    let failure: Failure | undefined;
    let endMs: number;
    if (trace.faults.has(callee.def.name) && faultOf(trace, callee.def.name, 'crash') !== undefined) {
      endMs = startMs + rng.between(0.5, 3);
      failure =
        callee.def.protocol === 'grpc'
          ? { message: 'UNAVAILABLE: io exception', exceptionType: 'io.grpc.StatusRuntimeException' }
          : { message: `connect ECONNREFUSED ${callee.def.name}:8080`, exceptionType: 'Error' };
    } else if ((failure = chronic(rng, step.chronicFailure)) !== undefined) {
      endMs = startMs + rng.between(0.2, 2) + (step.chronicFailure?.extraMs ?? 0);
    } else {
      const served = serve(trace, callee, operation, startMs + wireMs / 2, spanId);
      endMs = served.endMs + wireMs / 2;
      pushSpan(trace, caller, spanId, parentSpanId, operation.name, 'client', startMs, endMs, attrs, served.failure);
      return served;
    }
    // The call failed on the caller's side: the callee never saw it.
    logsAt.push([endMs, 'ERROR', `Call to ${callee.def.name} ${operation.name} failed: ${failure.message}`]);
    pushSpan(trace, caller, spanId, parentSpanId, operation.name, 'client', startMs, endMs, attrs, failure, true);
    return { endMs, failure };
  };

  const callPeer = (
    trace: TraceState,
    caller: ServiceInfo,
    step: PeerCall,
    startMs: number,
    parentSpanId: string,
    logsAt: [number, Severity, string][],
  ): StepResult => {
    const { rng } = trace;
    const peer = peers.get(step.peer);
    if (peer === undefined) throw new Error(`${caller.def.name} calls unknown peer ${step.peer}`);
    let callMs = rng.lognormal(step.medianMs, 0.4) * noiseOf(peer.index, trace.minute);
    const slow = faultOf(trace, peer.name, 'slow_db');
    if (slow !== undefined) callMs *= intensityOf(slow) * rng.between(0.85, 1.15);
    const failure = chronic(rng, step.chronicFailure);
    if (failure !== undefined) {
      callMs += step.chronicFailure?.extraMs ?? 0;
      logsAt.push([startMs + callMs, 'ERROR', `${step.statement} on ${peer.name} failed: ${failure.message}`]);
    }
    pushSpan(
      trace,
      caller,
      rng.hex(16),
      parentSpanId,
      step.statement,
      'client',
      startMs,
      startMs + callMs,
      cachedPeerAttrs(peer, step),
      failure,
      step.chronicFailure?.exceptionEvent ?? false,
    );
    return { endMs: startMs + callMs, failure };
  };

  const playTrace = (rng: Rng, startMs: number, spans: SpanRow[], logs: LogRow[]) => {
    const pick = rng.next() * totalWeight;
    let typeIndex = 0;
    while (typeIndex < cumulativeWeights.length - 1 && pick >= (cumulativeWeights[typeIndex] ?? 0)) typeIndex++;
    const type = model.requestTypes[typeIndex];
    const root = rootOperations[typeIndex];
    if (type === undefined || root === undefined) return;
    const trace: TraceState = {
      rng,
      traceId: rng.hex(32),
      baseNs: BigInt(Math.floor(startMs)) * 1_000_000n,
      minute: Math.floor(startMs / 60_000),
      spans,
      logs,
      faults: faults.length === 0 ? EMPTY : activeFaults(startMs),
    };
    if (faultOf(trace, gateway.def.name, 'crash') !== undefined) return;
    serve(trace, gateway, root, startMs - Math.floor(startMs), '', type.path(rng));
  };

  const backgroundLogs = (fromMs: number, toMs: number, logs: LogRow[]) => {
    for (const service of services.values()) {
      (service.def.background ?? []).forEach((job, jobIndex) => {
        const first = Math.max(0, Math.ceil((fromMs - job.offsetMs) / job.everyMs));
        for (let run = first; job.offsetMs + run * job.everyMs < toMs; run++) {
          const atMs = job.offsetMs + run * job.everyMs;
          if (atMs < fromMs) continue;
          if (
            activeFaults(atMs)
              .get(service.def.name)
              ?.some((fault) => fault.kind === 'crash')
          )
            continue;
          const rng = new Rng(seed, 0xb0b, service.index, jobIndex, run);
          const trace: TraceState = { rng, traceId: '', baseNs: BigInt(atMs) * 1_000_000n, minute: 0, spans: [], logs, faults: EMPTY };
          emitLog(trace, service, '', 0, job.severity, job.text(rng));
        }
      });
    }
  };

  return {
    model,
    rateAt,
    generate(fromMs, toMs) {
      const spans: SpanRow[] = [];
      const logs: LogRow[] = [];
      for (let second = Math.floor(fromMs / 1000); second * 1000 < toMs; second++) {
        const secondRng = new Rng(seed, second);
        const count = secondRng.poisson(rateAt(second * 1000));
        for (let index = 0; index < count; index++) {
          const startMs = second * 1000 + secondRng.next() * 1000;
          if (startMs < fromMs || startMs >= toMs) continue;
          playTrace(new Rng(seed, second, index), startMs, spans, logs);
        }
      }
      backgroundLogs(Math.ceil(fromMs), toMs, logs);
      return { spans, logs };
    },
  };
}

const EMPTY = new Map<string, Fault[]>();

/**
 * Attribute lists that never vary for an operation or a call are built once and shared by every row
 * (like the resource lists): rows are read-only to everything downstream, and a generator that
 * allocates less runs faster.
 */
const serverAttrsCache = new WeakMap<OperationDef, [ok: AttrPair[], failed: AttrPair[]]>();
const clientAttrsCache = new WeakMap<OperationDef, AttrPair[]>();
const peerAttrsCache = new WeakMap<PeerCall, AttrPair[]>();

function cachedServerAttrs(service: ServiceInfo, operation: OperationDef, failed: boolean, rootPath?: string): AttrPair[] {
  if (rootPath !== undefined) return serverAttrs(service, operation, failed, rootPath);
  let pair = serverAttrsCache.get(operation);
  if (pair === undefined) serverAttrsCache.set(operation, (pair = [serverAttrs(service, operation, false), serverAttrs(service, operation, true)]));
  return failed ? pair[1] : pair[0];
}

function cachedClientAttrs(callee: ServiceInfo, operation: OperationDef): AttrPair[] {
  let attrs = clientAttrsCache.get(operation);
  if (attrs === undefined) clientAttrsCache.set(operation, (attrs = clientAttrs(callee, operation)));
  return attrs;
}

function cachedPeerAttrs(peer: PeerDef, step: PeerCall): AttrPair[] {
  let attrs = peerAttrsCache.get(step);
  if (attrs === undefined) peerAttrsCache.set(step, (attrs = peerAttrs(peer, step)));
  return attrs;
}

function httpParts(operationName: string): [method: string, route: string] {
  const space = operationName.indexOf(' ');
  return [operationName.slice(0, space), operationName.slice(space + 1)];
}

function rpcMethod(operationName: string): string {
  return operationName.slice(operationName.indexOf('/') + 1);
}

function serverAttrs(service: ServiceInfo, operation: OperationDef, failed: boolean, rootPath?: string): AttrPair[] {
  if (service.def.protocol === 'grpc') {
    return [
      ['rpc.system', 'grpc'],
      ['rpc.service', service.def.rpcService ?? service.def.name],
      ['rpc.method', rpcMethod(operation.name)],
      ['rpc.grpc.status_code', failed ? 2 : 0],
    ];
  }
  const [method, route] = httpParts(operation.name);
  return [
    ['http.request.method', method],
    ['http.route', route],
    ['url.path', rootPath ?? route],
    ['http.response.status_code', failed ? 500 : 200],
  ];
}

function clientAttrs(callee: ServiceInfo, operation: OperationDef): AttrPair[] {
  const name = callee.def.name;
  if (callee.def.protocol === 'grpc') {
    return [
      ['rpc.system', 'grpc'],
      ['rpc.service', callee.def.rpcService ?? name],
      ['rpc.method', rpcMethod(operation.name)],
      ['peer.service', name],
      ['server.address', name],
      ['server.port', 8080],
    ];
  }
  const [method, route] = httpParts(operation.name);
  return [
    ['http.request.method', method],
    ['url.full', `http://${name}:8080${route}`],
    ['peer.service', name],
    ['server.address', name],
    ['server.port', 8080],
  ];
}

function peerAttrs(peer: PeerDef, step: PeerCall): AttrPair[] {
  if (peer.system === 'http') {
    const [method, route] = httpParts(step.statement);
    return [
      ['http.request.method', method],
      ['url.full', `https://${peer.name}${route}`],
      ['peer.service', peer.name],
      ['server.address', peer.name],
      ['server.port', 443],
    ];
  }
  return [
    ['db.system', peer.system],
    ['db.name', peer.dbName ?? peer.name],
    ['db.statement', step.statement],
    ['peer.service', peer.name],
    ['server.address', peer.name],
  ];
}
