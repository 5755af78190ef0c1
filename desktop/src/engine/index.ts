export * from './auth.js';
export * from './engine.js';
export * from './file-source.js';
export * from './state.js';
export * from './token-bucket.js';
export * from './transport.js';
export { checkUploadForm } from './forms.js';
export type { FormCheck, FormValues } from './forms.js';
