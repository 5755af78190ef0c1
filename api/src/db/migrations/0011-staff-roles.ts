import type { MigrationContext } from './types.js';

// Slot reserved for #33 (staff roles, invitations, staff management); its tables are added by that work.
export async function up(_params: { context: MigrationContext }): Promise<void> {}

export async function down(_params: { context: MigrationContext }): Promise<void> {}
