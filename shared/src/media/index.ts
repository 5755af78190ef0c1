/**
 * The pure half of media facts (no WebAssembly): names, words, the spec rules, the spec schema and the sniff
 * of a file's first bytes.
 */
export * from './names.js';
export * from './describe.js';
export * from './check.js';
export * from './spec-schema.js';
export * from './sniff.js';
