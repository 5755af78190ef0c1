export * from './bundles.js';
export * from './client.js';
export * from './progress.js';
export * from './protocol.js';
export * from './retry.js';
export * from './sha256.js';
export * from './memory.js';
