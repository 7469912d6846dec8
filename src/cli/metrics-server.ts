import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listenError } from '../config/listen-error.js';
import { parseListenAddr } from '../config/listen-addr.js';
import type { Logger } from '../util/log.js';

export interface MetricsServer {
  port(): number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text of `registry`) on `address`, the `<setting>` of a split
 * component. A taken port stops the component with a message naming the setting.
 */
export async function startMetricsServer(setting: string, address: string, registry: Registry, logger: Logger): Promise<MetricsServer> {
  const listen = parseListenAddr(address);
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if ((request.method !== 'GET' && request.method !== 'HEAD') || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        logger.error({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(setting, listen, error)));
    server.listen(listen.port, listen.host, () => resolve());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : listen.port;
  logger.info({ [setting]: `${listen.host}:${port}` }, 'metrics listening');
  return {
    port: () => port,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
