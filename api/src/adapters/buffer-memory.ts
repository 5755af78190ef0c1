// The server's chunks are given back as the clients' parts are (shared/src/upload-client/memory.ts).
export { giveBackMemory } from '@avp/shared';
