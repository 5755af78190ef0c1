export * from './accounts.js';
export * from './config.js';
export * from './errors.js';
export * from './store.js';
export type * from './types.js';
