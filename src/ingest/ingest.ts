import type { Registry } from 'prom-client';
import type { Bus } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { KafkaSettings } from '../config/settings.js';
import type { Logger } from '../util/log.js';
import { createAcceptor } from './accept.js';
import type { SignalCodec } from './codec.js';
import { createOtlpGrpcServer } from './grpc-server.js';
import { createOtlpHttpServer } from './http-server.js';
import { createIngestMetrics } from './metrics.js';

export interface IngestSettings {
  grpcAddr: { host: string; port: number };
  httpAddr: { host: string; port: number };
  kafka: KafkaSettings;
}

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
export function createIngest(settings: IngestSettings, deps: IngestDeps): Ingest {
  const logger = deps.logger.child({ component: 'ingest' });
  const metrics = createIngestMetrics(deps.registry);
  const acceptor = createAcceptor({
    bus: deps.bus,
    codec: deps.codec,
    metrics,
    logger,
    topics: { signals: settings.kafka.topic, logs: settings.kafka.logs_topic },
    maxRecordBytes: settings.kafka.max_record_bytes,
  });
  const grpcServer = createOtlpGrpcServer({ acceptor, codec: deps.codec, metrics, logger });
  const httpServer = createOtlpHttpServer({ acceptor, codec: deps.codec, metrics, registry: deps.registry, logger });
  let bound = { grpc: 0, http: 0 };

  return {
    async start() {
      const grpcPort = await grpcServer.listen(settings.grpcAddr.host, settings.grpcAddr.port);
      const http = await httpServer.listen(settings.httpAddr.host, settings.httpAddr.port);
      bound = { grpc: grpcPort, http: http.port };
      logger.info({ grpc: `${settings.grpcAddr.host}:${grpcPort}`, http: `${settings.httpAddr.host}:${http.port}` }, 'ingest listening');
    },
    async close() {
      await Promise.all([grpcServer.close(), httpServer.close()]);
    },
    ports: () => bound,
  };
}
