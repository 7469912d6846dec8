/**
 * The template-level metrics of LogHub-2.0 (Jiang et al., "A Large-scale Evaluation for Log
 * Parsing Techniques: How Far are We?", ISSTA 2024), which count events rather than lines, so a
 * rare event weighs as much as a frequent one:
 * - FGA (F1 of grouping accuracy): a predicted group is correct when it holds exactly the lines of
 *   one true event; precision = correct groups / predicted groups, recall = correct groups / true
 *   events.
 * - FTA (F1 of template accuracy): a predicted group is correct when it is correct as above and
 *   its template equals the true template (after the normalisation PA uses).
 */
export interface TemplateLevelScores {
  fga: number;
  fta: number;
}

const f1 = (correct: number, predicted: number, truth: number): number => {
  if (correct === 0) return 0;
  const precision = correct / predicted;
  const recall = correct / truth;
  return (2 * precision * recall) / (precision + recall);
};

/**
 * FGA and FTA of one set: per line its predicted group and template, its true event and template.
 * `normalize` is applied to both templates before they are compared.
 */
export function templateLevelScores(
  predictedGroups: readonly string[],
  predictedTemplates: readonly string[],
  truthEvents: readonly string[],
  truthTemplates: readonly string[],
  normalize: (template: string) => string,
): TemplateLevelScores {
  const n = truthEvents.length;
  if (predictedGroups.length !== n || predictedTemplates.length !== n || truthTemplates.length !== n) {
    throw new Error('predicted and truth must have the same length');
  }
  if (n === 0) return { fga: 1, fta: 1 };
  // Per predicted group: its size, the one true event of its lines (or null when mixed), its template.
  const groups = new Map<string, { size: number; event: string | null; template: string; truthTemplate: string }>();
  const eventSize = new Map<string, number>();
  truthEvents.forEach((event, i) => {
    eventSize.set(event, (eventSize.get(event) ?? 0) + 1);
    const group = predictedGroups[i] ?? '';
    const g = groups.get(group);
    if (g === undefined) groups.set(group, { size: 1, event, template: predictedTemplates[i] ?? '', truthTemplate: truthTemplates[i] ?? '' });
    else {
      g.size++;
      if (g.event !== event) g.event = null;
    }
  });
  let groupedRight = 0;
  let templatedRight = 0;
  for (const g of groups.values()) {
    if (g.event === null || eventSize.get(g.event) !== g.size) continue;
    groupedRight++;
    if (normalize(g.template) === normalize(g.truthTemplate)) templatedRight++;
  }
  return {
    fga: f1(groupedRight, groups.size, eventSize.size),
    fta: f1(templatedRight, groups.size, eventSize.size),
  };
}
