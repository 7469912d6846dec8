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
}
