import type { QueryInterface, Sequelize } from 'sequelize';

/** What every migration receives from umzug. */
export interface MigrationContext {
  queryInterface: QueryInterface;
  sequelize: Sequelize;
}
