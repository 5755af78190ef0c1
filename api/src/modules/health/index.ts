export { healthRoutes } from './routes.js';
export { checkHealth } from './service.js';
export type { HealthReport } from './service.js';
