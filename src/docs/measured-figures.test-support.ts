/**
 * Finds measured figures in a Markdown page: a speed, time or size stated as the result of a run,
 * as opposed to a setting, a default or a limit of the contract. Measured figures have one home,
 * the README's benchmark table, so a docs page that states one has a copy that will go stale.
 *
 * A figure is a number with a unit of time, size or speed. It counts as measured when
 * - its unit is a rate of work (`spans/s`, `lines per CPU-second`, `µs of CPU`): settings are
 *   never given that way, only results; or
 * - it is approximate (`~45 ms`, `about 1.8 times`): a setting is exact; or
 * - the sentence (or table row, or list item) it is in cites a run: `measured`, a load average,
 *   a date, `median run`, `the build before`, `in the same minutes`, `N runs`.
 * Code (fenced blocks and `inline code`) is left out: commands, examples and setting names are
 * not statements of a figure. So `assembler.gap_ms` (10000 ms), the 64 MiB body limit or
 * `kafka.max_record_bytes` (900,000 bytes) pass, and "p95 41 ms (load average 3.1)" does not.
 */

export interface MeasuredFigure {
  /** 1-based line of the sentence's start, for messages. */
  line: number;
  /** The figure as written, e.g. `1.17M lines/s`. */
  figure: string;
  /** Why it counts as measured: the unit, `~`, or the run the sentence cites. */
  because: string;
  sentence: string;
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?(?:\s?[kKMG](?![A-Za-z]))?`;
const RATE_UNIT = String.raw`(?:spans|logs|lines|records|traces|items|exports|requests|stories|messages)(?:\s?\/\s?s\b|\s(?:a|per)\s(?:CPU-)?second\b)|(?:µs|us|ms|s)\sof\sCPU\b|lines\sper\sCPU-second\b|MiB\/s\b|MB\/s\b`;
const PLAIN_UNIT = String.raw`(?:ms|µs|us|ns|s|sec|secs|seconds?|min|minutes?|KiB|MiB|GiB|kB|KB|MB|GB|%|x|times)(?![\w/])`;

const RATE_FIGURE = new RegExp(String.raw`(?<![\w.])${NUMBER}\s?(?:${RATE_UNIT})`, 'g');
const PLAIN_FIGURE = new RegExp(String.raw`(?<![\w.])((?:~|\b(?:about|around|roughly)\s)\s?)?${NUMBER}\s?${PLAIN_UNIT}`, 'g');

/** Words by which a sentence says its figures come from a run. */
const RUN_CITATIONS: readonly [RegExp, string][] = [
  [/\bmeasured\b/i, 'cites a measurement'],
  [/\bload average\b|\bat load\b|\bload (?:of |about )?~?\d/i, 'cites a load average'],
  [/\b20\d\d-\d\d-\d\d\b/, 'cites a date'],
  [/\bmedian run\b|\bbench runs?\b|\b(?:two|three|four|five|six|seven|eight|\d+) (?:interleaved )?(?:runs|pairs)\b/i, 'cites runs'],
  [/\b(?:loaded|quiet|busy) machine\b/i, 'cites the machine a run was on'],
  [/\bin the same minutes\b|\bthe build before\b|\bthis build\b/i, 'compares builds'],
];

/** The page with code left out: fenced blocks become blank lines, inline code a placeholder. */
function withoutCode(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '`…`');
  });
}

/**
 * Table rows, list items and paragraphs' sentences, each with the line it starts on. A table row
 * also carries its table's header row and the sentence before the table, which say what run the
 * table's figures come from.
 */
function sentences(lines: string[]): { line: number; text: string; context: string }[] {
  const units: { line: number; text: string; context: string }[] = [];
  let block: { line: number; parts: string[] } | undefined;
  let table: { context: string } | undefined;
  const flush = () => {
    if (block === undefined) return;
    const start = block.line;
    for (const text of block.parts.join(' ').split(/(?<=[.!?])\s+(?=[A-Z*(])/)) units.push({ line: start, text, context: '' });
    block = undefined;
  };
  lines.forEach((text, index) => {
    const line = index + 1;
    if (/^\s*\|/.test(text)) {
      flush();
      if (table === undefined) {
        const before = units.at(-1);
        table = { context: `${before !== undefined && before.line >= line - 3 ? before.text : ''} ${text}` };
      }
      units.push({ line, text, context: table.context });
      return;
    }
    table = undefined;
    if (text.trim() === '' || /^#/.test(text)) return flush();
    if (/^\s*(?:[-*]|\d+\.)\s/.test(text)) flush();
    if (block === undefined) block = { line, parts: [] };
    block.parts.push(text.trim());
  });
  flush();
  return units;
}

export function measuredFigures(markdown: string): MeasuredFigure[] {
  const found: MeasuredFigure[] = [];
  for (const { line, text, context } of sentences(withoutCode(markdown))) {
    const citation = RUN_CITATIONS.find(([pattern]) => pattern.test(text) || pattern.test(context))?.[1];
    const rates = new Set<number>();
    for (const match of text.matchAll(RATE_FIGURE)) {
      rates.add(match.index);
      found.push({ line, figure: match[0], because: 'a rate of work is a result, never a setting', sentence: text });
    }
    for (const match of text.matchAll(PLAIN_FIGURE)) {
      if (rates.has(match.index)) continue;
      const because = match[1] !== undefined ? 'approximate (~, about)' : citation;
      if (because !== undefined) found.push({ line, figure: match[0], because, sentence: text });
    }
  }
  return found;
}
