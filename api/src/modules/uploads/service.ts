/**
 * The uploads service, split by what each part does (common, submissions, registration, part writes,
 * completion, notices, removal). This module keeps the old import path working for code that still
 * names it.
 */
export * from './common.js';
export * from './submissions.js';
export * from './registration.js';
export * from './part-writes.js';
export * from './completion.js';
export * from './notices.js';
export * from './removal.js';
