import { Sequelize, Transaction } from 'sequelize';

/**
 * Sequelize on an SQLite file as connection.ts opens it (immediate transactions, no logging), before any
 * of its wrappers: tests add the ones they test. The caller closes it.
 */
export function bareSqlite(storage: string): Sequelize {
  return new Sequelize({
    dialect: 'sqlite',
    storage,
    logging: false,
    transactionType: Transaction.TYPES.IMMEDIATE,
  });
}
