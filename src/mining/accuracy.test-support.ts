/**
 * Grouping accuracy (GA) as defined by LogPAI (Zhu et al., "Tools and Benchmarks for Automated
 * Log Parsing"): a line is parsed correctly only when the set of lines in its predicted group is
 * exactly the set of lines in its ground-truth group. GA = correctly grouped lines / all lines.
 */
export function groupingAccuracy(predicted: readonly string[], truth: readonly string[]): number {
  if (predicted.length !== truth.length) throw new Error('predicted and truth must have the same length');
  if (truth.length === 0) return 1;
  const predictedSize = new Map<string, number>();
  for (const p of predicted) predictedSize.set(p, (predictedSize.get(p) ?? 0) + 1);
  // For each truth group: its size and the single predicted group of its lines (or null if several).
  const groups = new Map<string, { size: number; predicted: string | null; mixed: boolean }>();
  for (let i = 0; i < truth.length; i++) {
    const g = groups.get(truth[i]);
    if (g === undefined) groups.set(truth[i], { size: 1, predicted: predicted[i], mixed: false });
    else {
      g.size++;
      if (g.predicted !== predicted[i]) g.mixed = true;
    }
  }
  let correct = 0;
  for (const g of groups.values()) {
    if (!g.mixed && g.predicted !== null && predictedSize.get(g.predicted) === g.size) correct += g.size;
  }
  return correct / truth.length;
}
