/**
 * The shape of a simulated application: services, their operations, what each operation calls, the
 * log lines it writes, and the errors it has all the time. The engine (simulate.ts) only reads it,
 * so a test or a benchmark can hand in its own model.
 */
import type { Rng } from './random.js';

export type Severity = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** OpenTelemetry severity numbers of the texts used here. */
export const SEVERITY_NUMBER: Record<Severity, number> = { DEBUG: 5, INFO: 9, WARN: 13, ERROR: 17 };

/** A log line's text with its variable parts drawn from the trace's randomness. */
export type Template = (rng: Rng) => string;

export interface LogLine {
  severity: Severity;
  /** Chance the line is written by one execution of the operation (1: always). */
  probability: number;
  text: Template;
}

/** An error an operation or a call has all the time, at a low rate. */
export interface ChronicError {
  /** Share of executions that fail, 0..1. */
  rate: number;
  message: Template;
  exceptionType: string;
  /** Whether the failing span carries an `exception` event (not every instrumentation records one). */
  exceptionEvent: boolean;
  /** Extra time the failure takes (a timeout waits), in ms. */
  extraMs?: number;
}

/** What a caller does when a call fails: fail too (an exception thrown on), or log a warning and go on without it. */
export type OnError = 'propagate' | 'degrade';

/** A call to another instrumented service's operation: a CLIENT span in the caller, a SERVER span in the callee. */
export interface ServiceCall {
  type: 'call';
  service: string;
  operation: string;
  probability?: number;
  /** Copies made at once (in parallel), e.g. one lookup per search hit; default 1. */
  copies?: [min: number, max: number];
  onError: OnError;
  /** The call itself failing on the caller's side (service discovery, a client-side timeout), before reaching the callee. */
  chronicFailure?: ChronicError;
}

/** A call to an uninstrumented peer (a database, a cache, an outside API): a leaf CLIENT span in the caller. */
export interface PeerCall {
  type: 'peer';
  peer: string;
  /** The span name and, for databases, the `db.statement`-like operation (`SELECT orders`). */
  statement: string;
  medianMs: number;
  probability?: number;
  onError: OnError;
  chronicFailure?: ChronicError;
}

/** Work inside the service shown as an INTERNAL span. */
export interface InternalWork {
  type: 'internal';
  name: string;
  medianMs: number;
  probability?: number;
}

export type Step = ServiceCall | PeerCall | InternalWork;
/** One step, or several run at the same time (the stage ends with the slowest). */
export type Stage = Step | Step[];

export interface OperationDef {
  /** Span name on both sides of the call: `CartService/AddItem` for gRPC, `POST /cart/add` for HTTP. */
  name: string;
  /** Median self time in ms (lognormal around it). */
  selfMs: number;
  stages: Stage[];
  /** The first line should be written always (probability 1): the `exception` fault suppresses it. */
  logs: LogLine[];
  chronicError?: ChronicError;
}

export interface BackgroundJob {
  everyMs: number;
  /** Offset of the first run from time 0, in ms. */
  offsetMs: number;
  severity: Severity;
  text: Template;
}

export interface ServiceDef {
  name: string;
  protocol: 'grpc' | 'http';
  /** The gRPC service name (`oteldemo.CartService`) for `rpc.service`. */
  rpcService?: string;
  language: string;
  operations: OperationDef[];
  background?: BackgroundJob[];
}

export interface PeerDef {
  name: string;
  /** `db.system` of a database or cache; `http` for an outside API (no db attributes). */
  system: 'postgresql' | 'mysql' | 'redis' | 'http';
  dbName?: string;
}

/** One kind of request entering through the gateway's catch-all route. */
export interface RequestType {
  name: string;
  weight: number;
  /** The real path (`url.path`), e.g. `/product/OLJCESPC7Z`. */
  path: Template;
  /** What the gateway calls for it (the frontend's matching operation). */
  entry: { service: string; operation: string };
}

export interface AppModel {
  /** The service every request enters through; its root SERVER span is `rootSpanName` for every request. */
  gateway: string;
  rootSpanName: string;
  rootRoute: string;
  /** Calls the gateway makes before the entry call on every request (token check). */
  gatewayStages: Stage[];
  gatewayLogs: LogLine[];
  requestTypes: RequestType[];
  services: ServiceDef[];
  peers: PeerDef[];
}
