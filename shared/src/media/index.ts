/** The pure half of media facts (no WebAssembly): names, words, the spec rules and the spec schema. */
export * from './names.js';
export * from './describe.js';
export * from './check.js';
export * from './spec-schema.js';
