/** Prometheus metrics (issue 35 item 1): one registry per process, served at /metrics (routes.ts). */
export { metricsOf, ProcessMetrics } from './metrics.js';
export { countRequests } from './http.js';
export { METRICS_PATH, metricsRoute, startMetricsServer } from './routes.js';
export type { MetricsServer } from './routes.js';
