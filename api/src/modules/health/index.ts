export { healthRoutes } from './routes.js';
export { checkHealth } from './service.js';
export type { HealthReport } from './service.js';
export { checkReady, READY_CHECKS } from './ready.js';
export type { ReadyCheck, ReadyReport } from './ready.js';
