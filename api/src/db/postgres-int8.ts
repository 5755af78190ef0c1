import type { Sequelize } from 'sequelize';

const INT8_OID = 20;

/** int8 (BIGINT, COUNT) as a JS number; a value past 2^53 stays a string rather than lose digits. */
export function parseInt8(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/**
 * Makes BIGINT columns (file sizes) and COUNT(*) read as numbers on PostgreSQL too, as they do on SQLite;
 * pg reads int8 as a string by default. The parser belongs to the pg module Sequelize loaded, so it is
 * process-wide; everything in this process that reads int8 wants it.
 */
export function readInt8AsNumber(sequelize: Sequelize): void {
  const { lib } = sequelize.connectionManager as unknown as {
    lib: { types: { setTypeParser(oid: number, parse: (value: string) => unknown): void } };
  };
  lib.types.setTypeParser(INT8_OID, parseInt8);
}
