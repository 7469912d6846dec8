import type { Store } from '../../model/store.js';

/** What a migration's `run` may tell the runner while it works. */
export interface MigrationContext {
  /** Offers an optional statement (see `optionalStatements`): run, or reported as skipped when the server refuses it. */
  optional(statement: string): Promise<void>;
  /** A progress line for the service's log, for steps that can take long (a copy of stored rows). */
  progress(message: string, fields: Record<string, unknown>): void;
}

/** A numbered schema change: statements run in order; each must be idempotent (IF NOT EXISTS). */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
  /**
   * Run after `statements`, for a feature that only newer ClickHouse servers have (an index type):
   * a statement the server refuses is left out and reported, and the migration is still recorded.
   * The code that reads through such a feature must check that the schema has it.
   */
  optionalStatements?: readonly string[];
  /**
   * Run last, for a change that depends on what the store holds (a table rebuilt from its rows).
   * Like the statements it must be safe to run again after stopping at any point: the migration
   * is recorded only once it returns.
   */
  run?: (store: Store, context: MigrationContext) => Promise<void>;
}
