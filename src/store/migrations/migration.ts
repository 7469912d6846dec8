/** A numbered schema change: statements run in order; each must be idempotent (IF NOT EXISTS). */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}
