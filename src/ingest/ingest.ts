import type { Registry } from 'prom-client';
import type { Bus } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { IngestSettings, KafkaSettings } from '../config/settings.js';
import type { Logger } from '../util/log.js';
import { listenError } from '../config/listen-error.js';
import { createAcceptor } from './accept.js';
import type { SignalCodec } from './codec.js';
import { createOtlpGrpcServer } from './grpc-server.js';
import { createOtlpHttpServer } from './http-server.js';
import { AnswerRateLimit } from './answer-rate-limit.js';
import { InFlightBudget } from './in-flight-budget.js';
import { readAnonRssBytes } from './anon-rss.js';
import { MemoryGate } from './memory-gate.js';
import { createIngestMetrics, registerInFlightGauges } from './metrics.js';

export interface IngestOptions {
  grpcAddr: { host: string; port: number };
  httpAddr: { host: string; port: number };
  /** The setting httpAddr came from (otlp_http_addr in all-in-one, http_addr for `svc ingest`), named when it cannot be bound. */
  httpAddrSetting?: string;
  kafka: KafkaSettings;
  ingest: IngestSettings;
}

/**
 * The stop's deadlines. Answers of exports in flight are the bus's (milliseconds with the embedded
 * log, up to a broker round trip with Kafka); a gRPC call still open past the first is cancelled, an
 * HTTP connection still sending a body past the second is cut, and the whole stop of ingest stays
 * within a few seconds of the 10 s a graceful stop has.
 */
const GRPC_SHUTDOWN_MS = 2_000;
const HTTP_FORCE_CLOSE_MS = 3_000;
const IN_FLIGHT_WAIT_MS = 5_000;
/** How long an export larger than the whole budget may wait for the others (in-flight-budget.ts). */
const MAX_BUDGET_WAIT_MS = 5_000;
/**
 * Under a flood, exports in flight are held to what is answered within about a second (a fifth of
 * the OTel SDKs' 10 s export timeout); the rest are refused at once, retryably. 16 are always
 * allowed, and ingest.max_in_flight_requests stays the upper bound.
 */
const ANSWER_RATE_LIMIT = { targetAnswerMs: 1_000, floorRequests: 16, windowMs: 2_000 };
/**
 * Memory is read at most every 50 ms (a /proc read, ~20 us); while it is above
 * ingest.max_memory_bytes, one export a second is still admitted.
 */
const MEMORY_GATE = { checkEveryMs: 50, admitEveryMs: 1_000 };

export interface IngestDeps {
  bus: Bus;
  codec: SignalCodec;
  registry: Registry;
  logger: Logger;
}

export interface Ingest extends Component {
  /** Bound ports once started (the settings may ask for port 0). */
  ports(): { grpc: number; http: number };
}

/** The ingest component: OTLP over gRPC and HTTP, published to the bus. */
export function createIngest(settings: IngestOptions, deps: IngestDeps): Ingest {
  const logger = deps.logger.child({ component: 'ingest' });
  const metrics = createIngestMetrics(deps.registry);
  const budget = new InFlightBudget({
    maxInFlightRequests: settings.ingest.max_in_flight_requests,
    maxInFlightBytes: settings.ingest.max_in_flight_bytes,
    maxWaitMs: MAX_BUDGET_WAIT_MS,
    answerRate: { limit: new AnswerRateLimit(ANSWER_RATE_LIMIT), nowMs: () => performance.now() },
    ...(settings.ingest.max_memory_bytes > 0
      ? {
          memory: new MemoryGate({
            ...MEMORY_GATE,
            maxBytes: settings.ingest.max_memory_bytes,
            readAnonBytes: readAnonRssBytes,
            nowMs: () => performance.now(),
          }),
        }
      : {}),
  });
  registerInFlightGauges(deps.registry, () => budget.inFlight());
  const acceptor = createAcceptor({
    bus: deps.bus,
    codec: deps.codec,
    metrics,
    logger,
    topics: { signals: settings.kafka.topic, logs: settings.kafka.logs_topic },
    maxRecordBytes: settings.kafka.max_record_bytes,
  });
  const grpcServer = createOtlpGrpcServer({ acceptor, codec: deps.codec, metrics, logger, budget });
  const httpServer = createOtlpHttpServer({ acceptor, codec: deps.codec, metrics, registry: deps.registry, logger, budget });
  let bound = { grpc: 0, http: 0 };

  return {
    async start() {
      const grpcPort = await grpcServer.listen(settings.grpcAddr.host, settings.grpcAddr.port).catch((error: unknown) => {
        throw listenError('grpc_addr', settings.grpcAddr, error);
      });
      const http = await httpServer.listen(settings.httpAddr.host, settings.httpAddr.port).catch(async (error: unknown) => {
        // Nothing was accepted yet: the gRPC port goes down with the failed start.
        await grpcServer.close(0);
        throw listenError(settings.httpAddrSetting ?? 'otlp_http_addr', settings.httpAddr, error);
      });
      bound = { grpc: grpcPort, http: http.port };
      logger.info({ grpc: `${settings.grpcAddr.host}:${grpcPort}`, http: `${settings.httpAddr.host}:${http.port}` }, 'ingest listening');
    },
    /**
     * Stops accepting on every connection at once (new exports refused as "retry later", idle
     * connections closed), then waits for the exports in flight: each is answered once the bus has
     * it, so nothing acknowledged is left behind when the consumers drain.
     */
    async close() {
      const stopMs = Date.now();
      budget.close();
      httpServer.stopAccepting();
      grpcServer.stopAccepting(GRPC_SHUTDOWN_MS);
      const idle = await Promise.race([budget.whenIdle().then(() => true), delay(IN_FLIGHT_WAIT_MS).then(() => false)]);
      if (!idle) logger.warn({ inFlight: budget.inFlight() }, 'exports still in flight at the stop deadline; their clients get no answer');
      await Promise.all([grpcServer.close(GRPC_SHUTDOWN_MS), httpServer.close(HTTP_FORCE_CLOSE_MS)]);
      logger.info({ stop_ms: Date.now() - stopMs }, 'ingest stopped');
    },
    ports: () => bound,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
