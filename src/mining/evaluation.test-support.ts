/**
 * Accuracy of the miner on labelled sets: grouping accuracy (GA), parsing accuracy (PA) and
 * leave-one-dataset-out (LOO) selection of the miner's tunable options, so that a change is
 * judged on sets it was not tuned on. Pure: sets come in, figures go out.
 */
import { groupingAccuracy } from './accuracy.test-support.js';
import { templateLevelScores } from './loghub2-metrics.test-support.js';
import { templateText, type Cluster } from './drain.js';
import { DEFAULT_MINER_OPTIONS, LogMiner, type MinerOptions } from './miner.js';

/** Lines with their true event and true template (`<*>` for variables). */
export interface Labelled {
  name: string;
  content: readonly string[];
  eventIds: readonly string[];
  templates: readonly string[];
}

export interface SetScore {
  name: string;
  ga: number;
  pa: number;
  /** LogHub-2.0's F1 of grouping accuracy (per event, not per line). */
  fga: number;
  /** LogHub-2.0's F1 of template accuracy. */
  fta: number;
  templates: number;
}

/**
 * The usual normalisation before comparing template texts: whitespace runs become one space, and a
 * run of wildcards joined only by separators (`<*>:<*>`, `<*>, <*>`, `<*> <*>`, `<*>.<*>`) is one
 * wildcard, since how many pieces a value was cut into says nothing about the event.
 */
export function normalizeTemplate(template: string): string {
  return template
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/<\*>(?:[\s,:;.\-/_|]*<\*>)+/g, '<*>');
}

/**
 * Parsing accuracy: share of lines whose template (as it stands after all lines are mined) equals
 * the true template after normalisation.
 */
export function parsingAccuracy(predicted: readonly string[], truth: readonly string[]): number {
  if (predicted.length !== truth.length) throw new Error('predicted and truth must have the same length');
  if (truth.length === 0) return 1;
  let correct = 0;
  const memo = new Map<string, string>();
  const norm = (t: string): string => {
    let n = memo.get(t);
    if (n === undefined) {
      n = normalizeTemplate(t);
      memo.set(t, n);
    }
    return n;
  };
  for (let i = 0; i < truth.length; i++) if (norm(predicted[i]) === norm(truth[i])) correct++;
  return correct / truth.length;
}

/** GA and PA of one set mined as one service, lines in order. */
export function scoreSet(set: Labelled, options: MinerOptions = DEFAULT_MINER_OPTIONS): SetScore {
  const miner = new LogMiner(options);
  const clusters: Cluster[] = set.content.map((line) => miner.mine(set.name, line));
  const ga = groupingAccuracy(
    clusters.map((c) => c.id),
    set.eventIds,
  );
  const pa = parsingAccuracy(
    clusters.map((c) => templateText(c)),
    set.templates,
  );
  const { fga, fta } = templateLevelScores(
    clusters.map((c) => c.id),
    clusters.map((c) => templateText(c)),
    set.eventIds,
    set.templates,
    normalizeTemplate,
  );
  return { name: set.name, ga, pa, fga, fta, templates: miner.templateCount() };
}

/** A named point of the option grid the LOO selection may choose from. */
export interface Candidate {
  label: string;
  options: MinerOptions;
}

/** The tunable knobs: tree levels, similarity threshold, crowded-leaf size. The default comes first. */
export function defaultCandidates(base: MinerOptions = DEFAULT_MINER_OPTIONS): Candidate[] {
  const out: Candidate[] = [{ label: 'default', options: base }];
  for (const prefixLevels of [1, 2]) {
    for (const simThreshold of [0.4, 0.5, 0.6, 0.7]) {
      for (const crowdedLeafTemplates of [4, 8, 16]) {
        const options = { ...base, simThreshold, crowdedLeafTemplates, prefixLevels };
        out.push({ label: `levels=${prefixLevels},sim=${simThreshold},crowded=${crowdedLeafTemplates}`, options });
      }
    }
  }
  return out;
}

export interface LeaveOneOut {
  /** Per held-out set: the candidate chosen on the others and its scores on the held-out set. */
  folds: { heldOut: string; chosen: string; ga: number; pa: number }[];
  meanGa: number;
  meanPa: number;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Leave-one-dataset-out: for each set, the candidate with the best mean GA over the other sets
 * (earliest candidate on ties) is judged on the held-out set.
 */
export function leaveOneOut(sets: readonly Labelled[], candidates: readonly Candidate[] = defaultCandidates()): LeaveOneOut {
  const scores = candidates.map((c) => sets.map((s) => scoreSet(s, c.options)));
  const folds = sets.map((held, h) => {
    let best = 0;
    let bestGa = -1;
    for (let c = 0; c < candidates.length; c++) {
      const ga = mean(scores[c].filter((_, i) => i !== h).map((s) => s.ga));
      if (ga > bestGa + 1e-12) {
        bestGa = ga;
        best = c;
      }
    }
    return { heldOut: held.name, chosen: candidates[best].label, ga: scores[best][h].ga, pa: scores[best][h].pa };
  });
  return { folds, meanGa: mean(folds.map((f) => f.ga)), meanPa: mean(folds.map((f) => f.pa)) };
}

/**
 * Per-set GA, PA, FGA and FTA as a Markdown table with the means, for the bench and the docs;
 * `language` adds a column naming each set's language.
 */
export function scoreTable(title: string, scored: readonly SetScore[], language?: ReadonlyMap<string, string>): string {
  const lang = (name: string): string => (language === undefined ? '' : ` ${language.get(name) ?? ''} |`);
  const m = (f: (s: SetScore) => number): string => mean(scored.map(f)).toFixed(3);
  return [
    `| ${title} |${language === undefined ? '' : ' Language |'} GA | PA | FGA | FTA | Templates |`,
    `|---|${language === undefined ? '' : '---|'}---|---|---|---|---|`,
    ...scored.map((s) => `| ${s.name} |${lang(s.name)} ${s.ga.toFixed(3)} | ${s.pa.toFixed(3)} | ${s.fga.toFixed(3)} | ${s.fta.toFixed(3)} | ${s.templates} |`),
    `| **mean** |${language === undefined ? '' : ' |'} ${m((s) => s.ga)} | ${m((s) => s.pa)} | ${m((s) => s.fga)} | ${m((s) => s.fta)} | |`,
  ].join('\n');
}

/** Mean GA and PA of the default options over the sets, with the per-set scores. */
export function scoreAll(
  sets: readonly Labelled[],
  options: MinerOptions = DEFAULT_MINER_OPTIONS,
): { sets: SetScore[]; meanGa: number; meanPa: number; meanFga: number; meanFta: number } {
  const scored = sets.map((s) => scoreSet(s, options));
  return {
    sets: scored,
    meanGa: mean(scored.map((s) => s.ga)),
    meanPa: mean(scored.map((s) => s.pa)),
    meanFga: mean(scored.map((s) => s.fga)),
    meanFta: mean(scored.map((s) => s.fta)),
  };
}

/**
 * Template counts of one set mined once plainly and then replayed `passes` times into one miner
 * with every digit run replaced by a number never seen before: lines repeat their shape, never
 * their text. Templates are flat under replay when every pass count equals the plain count.
 */
export function replayTemplateCounts(set: Labelled, passes: number, fresh: (line: string) => string): { plain: number; perPass: number[] } {
  const plain = new LogMiner(DEFAULT_MINER_OPTIONS);
  for (const line of set.content) plain.mine(set.name, line);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const perPass: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const line of set.content) miner.mine(set.name, fresh(line));
    perPass.push(miner.templateCount());
  }
  return { plain: plain.templateCount(), perPass };
}

/** A function giving each digit run of a line a number never given before (for replays). */
export function freshNumbers(): (line: string) => string {
  let next = 0;
  return (line) => line.replace(/\d+/g, () => String(++next));
}
