import { Counter, Histogram, type Registry } from 'prom-client';

export function createApiMetrics(registry: Registry) {
  const registers = [registry];
  return {
    repoErrors: new Counter({ name: 'svc_api_repo_errors_total', help: 'API storage read errors', registers }),
    lagErrors: new Counter({ name: 'svc_api_lag_errors_total', help: 'API consumer-lag read errors', registers }),
    requestSeconds: new Histogram({
      name: 'svc_api_request_duration_seconds',
      help: 'API request time',
      labelNames: ['route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}
