/**
 * A value of several words: an error's text (`timed out`, `Connection reset by peer`), a quoted
 * value (`err="EOF"`, `err="Connection reset by peer"`), an exception with its message (`due to
 * <*>` taking `org.example.TimeoutException: Timeout expired`), or a name beside a value that the
 * masker joins into one wildcard or not (`GOSSIP <*> …` and `GOSSIP localhost.lan <*> …`, `request
 * "<*> <*>"` and `request "GET /healthz <*>"`). Such a value has as many tokens as it has, so the
 * lines of one event come in several token counts, and grouped by token count each count keeps a
 * template of its own. A line that no template of its own token count takes may join a template of
 * another count when the two are equal (or fit) but for one run of tokens in the same place, with at
 * least MIN_SHARED_TOKENS around it, and that run is a value slot:
 * - one quoted (or braced) value in both: `'…'`, `"…"`, `{…}`, the quote opening the run and
 *   closing it, nothing quoted in between;
 * - a text of words after a label (a token ending in `:` after a word or a value, with at least
 *   MIN_LABEL_CORE_TOKENS tokens before it), after a program's name as first token only where its
 *   tail varies (optional-tail.ts, labelsAfterProgram);
 * - extra tokens one of the two has beside a wildcard of the template, when they are names
 *   (compound names, absolute paths, names glued to a value) or a text of words after a label.
 * Plain words one line has and the other not (`Node is up` against `Node is not up`) are not a
 * value slot: an inserted word is as often a word of the message. Nor are runs in parentheses or
 * brackets (`Fan speeds ( <*> )`, `[already set]`): their length is as often the event's own.
 */
import { WILDCARD, isPinnedToken } from './masking.js';
import { isNameLike } from './name-like.js';
import { MAX_REMARK_TOKENS, MIN_LABEL_CORE_TOKENS, isLabel, labelsAfterProgram } from './optional-tail.js';
import { commonShape, fitsPattern } from './drain.js';
import type { ValueWords } from './value-words.js';
import { differsInValueSlot } from './value-slot.js';
import { differsInKeyValue } from './kv-field.js';
import { isAdverb, isFieldTail, isMidGroup, isOptionalWord } from './optional-run.js';

/** Lines of one event differ by at most this many tokens in length. */
export const MAX_LENGTH_DIFFERENCE = 4;
/** A run longer than this is more than a value. */
const MAX_RUN_TOKENS = 6;
/** Tokens the two must share around the run: fewer are too little evidence of one event (4 kept caddy and etcd lines of one event apart, docs/log-mining.md). */
const MIN_SHARED_TOKENS = 3;
/**
 * A text after a label in the middle of a line (`<*> connection closed: <text> - Account: <*>`)
 * needs this many tokens before it and as many after it, rather than MIN_LABEL_CORE_TOKENS
 * before: the words after it bound the text. With one after it, OpenVPN FGA fell 0.011; with 2
 * on each side, HAProxy 0.939 -> 0.920.
 */
const MID_LABEL_SHARED_TOKENS = 3;

/** A template token standing for the line's token: equal, a wildcard, or a pattern it fits. */
function fits(t: string, l: string): boolean {
  if (t === l) return true;
  if (t === WILDCARD) return !isPinnedToken(l);
  return t.includes(WILDCARD) && !isPinnedToken(l) && fitsPattern(t, l);
}

/** `"`, `'`, `{`. */
function isOpener(c: number): boolean {
  return c === 34 || c === 39 || c === 123;
}

/** The leading characters two tokens share, when they end in an opening quote or bracket. */
function sharedOpening(a: string, b: string): string {
  const max = Math.min(a.length, b.length);
  let k = 0;
  while (k < max && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  // Back to the last opener within the shared part (`err="` of `err="EOF"` and `err="Connection`).
  while (k > 0 && !isOpener(a.charCodeAt(k - 1))) k--;
  return a.slice(0, k);
}

/** Closing punctuation: quotes, brackets, and the `,`, `.`, `;`, `:` that may follow them. */
function isCloser(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 125 || c === 62 || c === 44 || c === 46 || c === 59 || c === 58;
}

/** The trailing closing punctuation two tokens share (`"}` of `"EOF"}` and `peer"}`). */
function sharedClosing(a: string, b: string): string {
  let k = 0;
  const max = Math.min(a.length, b.length);
  while (k < max && a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k) && isCloser(a.charCodeAt(a.length - 1 - k))) k++;
  return a.slice(a.length - k);
}

/** Whether the closing part holds a quote or a bracket, not just a comma or colon. */
function closesGroup(closing: string): boolean {
  for (let i = 0; i < closing.length; i++) {
    const c = closing.charCodeAt(i);
    if (c === 34 || c === 39 || c === 125) return true;
  }
  return false;
}

/**
 * Whether tokens[from, to) are one quoted or braced value: the run's opening character (the last of
 * `opening`) occurs once more in it at most, as its close, so `'a' overrides previous 'b'` is not one.
 */
function oneGroup(tokens: readonly string[], from: number, to: number, opening: string): boolean {
  const open = opening.charCodeAt(opening.length - 1);
  const close = open === 123 ? 125 : open;
  let closes = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    for (let j = i === from ? opening.length : 0; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === close) closes++;
      else if (c === open) return false;
    }
  }
  return closes === 1;
}

/** A label (optional-tail.ts: `error:`, `<*>:`; not `(<*>):` or `"main":`, which close a part of the message). */
function isLabelToken(token: string | undefined): boolean {
  return token !== undefined && isLabel(token);
}

/** A first token ending in `:`: a program's name (`ciod:`), after which labels end its own clauses. */
function isProgramName(token: string | undefined): boolean {
  return token !== undefined && token.length > 1 && token.charCodeAt(token.length - 1) === 58;
}

/** A wildcard with punctuation around it at most (`<*>`, `"<*>`, `<*>",`): a value's slot. */
function isValueSlot(token: string | undefined): boolean {
  if (token === undefined) return false;
  const at = token.indexOf(WILDCARD);
  if (at < 0) return false;
  for (let i = 0; i < token.length; i++) {
    if (i === at) {
      i += WILDCARD.length - 1;
      continue;
    }
    const c = token.charCodeAt(i) | 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return false;
  }
  return true;
}

/**
 * Whether tokens[from, to), which a wildcard takes, are names and values: compound names
 * (`db-1.prod`), absolute paths (`/healthz`), values and names glued to a value (`node-<*>`), at
 * least one not a bare wildcard (the masker joins adjacent values, so a bare wildcard says
 * nothing); not plain words, which are as often the message's own.
 */
function namesOnly(tokens: readonly string[], from: number, to: number, values: ValueWords | null = null): boolean {
  let named = false;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (!(isNameLike(t) || t.charCodeAt(0) === 47 || t.includes(WILDCARD) || values?.has(t) === true)) return false;
    if (t !== WILDCARD) named = true;
  }
  return named;
}

/**
 * Whether tokens[from, to), a run one of the two has and the other not, is a text of words after a
 * label (`org.example.TimeoutException: Timeout expired`, where the wildcard before took the
 * exception's name): what a label introduces is its value. After a program's name as first token,
 * only where its tail varies (below).
 */
function labelledText(tokens: readonly string[], from: number, to: number): boolean {
  return from >= MIN_LABEL_CORE_TOKENS && to > from && isLabelToken(tokens[from - 1]) && notProgramClause(tokens, from - 1) && wordsOnly(tokens, from, to);
}

/**
 * Whether the label tokens[at] does not end a clause of a program's own format: the line does not
 * open with a program's name, or the label is one whose tail varies there (optional-tail.ts).
 */
function notProgramClause(tokens: readonly string[], at: number): boolean {
  return !isProgramName(tokens[0]) || labelsAfterProgram(tokens, at);
}

/** Whether tokens[from, to) hold no wildcard. */
function wordsOnly(tokens: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (tokens[i]!.includes(WILDCARD)) return false;
  return true;
}

/**
 * Whether the line fits the template as it stands, a value slot of the template (a wildcard with
 * punctuation around it at most: `<*>`, `err="<*>"`) taking one token or a run of several, which
 * opens with the slot's leading punctuation and closes with its trailing one. Every line a template
 * took across token counts fits it so, however it generalizes later: a later line may turn another
 * run into a slot, after which the earlier line differs from it in two runs, which `elasticShape`
 * alone would refuse; without this, replays would create templates.
 */
export function elasticFits(template: readonly string[], line: readonly string[], values: ValueWords | null = null): boolean {
  const extra = line.length - template.length;
  if (extra <= 0 || extra > MAX_LENGTH_DIFFERENCE) return false;
  return fitsFrom(template, line, 0, 0, extra, values);
}

/**
 * Whether line[from, to) is one quoted value: a quote opening in its first token (after the slot's
 * own opening, which a later generalization may have dropped) closes in its last token only.
 */
function quotedRun(line: readonly string[], from: number, to: number, open: string): boolean {
  const first = line[from]!;
  for (let q = open.length; q < first.length; q++) if (isOpener(first.charCodeAt(q))) return oneGroup(line, from, to, first.slice(0, q + 1));
  return false;
}

/**
 * Whether a slot opening with `open` takes the run line[from, to) of several tokens: names and
 * values, one quoted value, a text of words after a label (before the run, or ending its first
 * token, as an exception's name does).
 */
function slotTakes(line: readonly string[], from: number, to: number, open: string, values: ValueWords | null): boolean {
  if (
    namesOnly(line, from, to, values) ||
    labelledText(line, from, to) ||
    quotedRun(line, from, to, open) ||
    values?.hasText(line, from, to) === true ||
    exceptionRun(line, from, to)
  )
    return true;
  return from + 1 >= MIN_LABEL_CORE_TOKENS && isLabelToken(line[from]) && labelledText(line, from + 1, to);
}

function fitsFrom(template: readonly string[], line: readonly string[], ti: number, li: number, extra: number, values: ValueWords | null): boolean {
  for (; ti < template.length; ti++, li++) {
    const t = template[ti]!;
    if (extra > 0 && isValueSlot(t)) {
      const open = t.slice(0, t.indexOf(WILDCARD));
      const close = t.slice(t.lastIndexOf(WILDCARD) + WILDCARD.length);
      const first = line[li]!;
      if (!isPinnedToken(first) && first.startsWith(open)) {
        for (let k = 1; k <= extra; k++) {
          const last = line[li + k]!;
          if (isPinnedToken(last)) break;
          if (last.endsWith(close) && slotTakes(line, li, li + k + 1, open, values) && fitsFrom(template, line, ti + 1, li + k + 1, extra - k, values))
            return true;
        }
      }
    }
    if (!fits(t, line[li]!)) return false;
  }
  return extra === 0;
}

/**
 * The template `template` becomes when `line`, of another length, joins it as above, or null
 * when the line is not of its event. The result is `template` itself when the template already
 * takes the line (a wildcard beside the run takes the extra tokens).
 */
export function elasticShape(template: readonly string[], line: readonly string[], values: ValueWords | null = null): readonly string[] | null {
  const found = elasticShapeAround(template, line, values) ?? midGroupShape(template, line);
  if (found === null) return null;
  const { shape, p, s } = found;
  // Positions around the run that differ in a value slot become that slot (`host: "<*>"` from
  // `"example.com"` and `"<*>"`), as they would between lines of one token count.
  let out: string[] | null = null;
  const generalizeAt = (i: number, l: string): void => {
    const t = (out ?? shape)[i]!;
    if (fits(t, l)) return;
    out ??= [...shape];
    out[i] = commonShape(t, l);
  };
  for (let i = 0; i < p; i++) generalizeAt(i, line[i]!);
  for (let k = 0; k < s; k++) generalizeAt(shape.length - 1 - k, line[line.length - 1 - k]!);
  return out ?? shape;
}

/**
 * The template ending in one wildcard for extra fields when the line equals it but for extra
 * `key=value` fields that one of the two ends in (optional-run.ts), after at least
 * MIN_SHARED_TOKENS tokens both share; null otherwise.
 */
function fieldTailShape(template: readonly string[], line: readonly string[]): { shape: readonly string[]; p: number; s: number } | null {
  const nT = template.length;
  const nL = line.length;
  const shortest = Math.min(nT, nL);
  let p = 0;
  while (p < shortest && near(template, line, p, p)) p++;
  if (p !== shortest || p < MIN_SHARED_TOKENS) return null;
  if (nL > nT && isFieldTail(line, p, nL))
    return { shape: template[nT - 1] === WILDCARD && isFieldTail(template, nT - 1, nT) ? template : [...template, WILDCARD], p, s: 0 };
  if (nT > nL && isFieldTail(template, p, nT)) return { shape: [...template.slice(0, p), WILDCARD], p, s: 0 };
  return null;
}

/**
 * fieldTailShape for fields inside a closing bracket or brace both end with (`[order=<*>
 * amount=<*>]` against `[order=<*> amount=<*> coupon=SPRING]`): the slot closes as they do.
 */
function bracketedFieldTail(template: readonly string[], line: readonly string[]): { shape: readonly string[]; p: number; s: number } | null {
  const tLast = template[template.length - 1];
  const lLast = line[line.length - 1];
  if (tLast === undefined || lLast === undefined || tLast.length < 2 || lLast.length < 2) return null;
  const c = lLast.charCodeAt(lLast.length - 1);
  if ((c !== 93 && c !== 125) || tLast.charCodeAt(tLast.length - 1) !== c) return null;
  const strip = (tokens: readonly string[]): string[] => [...tokens.slice(0, -1), tokens[tokens.length - 1]!.slice(0, -1)];
  const found = fieldTailShape(strip(template), strip(line));
  if (found === null) return null;
  const shape = [...found.shape];
  shape[shape.length - 1] += String.fromCharCode(c);
  return { shape, p: found.p, s: found.s };
}

/**
 * The template when the line equals it but for a group in parentheses or brackets in the middle
 * that one of the two has (optional-run.ts), a name in one other place at most differing (`to
 * db-1 (attempt 2) in` against `to db-2 in`), with the template's name made a slot there; null
 * otherwise. The template keeps the group it has or lacks: the first line's form stands.
 */
function midGroupShape(template: readonly string[], line: readonly string[]): { shape: readonly string[]; p: number; s: number } | null {
  const d = line.length - template.length;
  const size = Math.abs(d);
  const longer = d > 0 ? line : template;
  if (size === 0 || size > MAX_REMARK_TOKENS) return null;
  for (let q = 1; q + size < longer.length; q++) {
    if (!isMidGroup(longer, q, q + size) && !(size === 1 && isOptionalWord(longer, q))) continue;
    let shared = 0;
    let differing = -1;
    let ok = true;
    for (let i = 0; i < longer.length - size && ok; i++) {
      const ti = d > 0 || i < q ? i : i + size;
      const li = d < 0 || i < q ? i : i + size;
      const t = template[ti]!;
      const l = line[li]!;
      if (near(template, line, ti, li)) shared++;
      else if (differing < 0 && !isPinnedToken(t) && !isPinnedToken(l) && (isNameLike(t) || isNameLike(l))) differing = ti;
      else ok = false;
    }
    if (!ok || shared < MIN_SHARED_TOKENS) continue;
    // A template holding an optional adverb makes it a slot: another adverb may stand there. A
    // function word stays (optional-run.ts): a slot there would take no line that lacks it.
    const word = size === 1 && d < 0 && !isMidGroup(longer, q, q + size) && isAdverb(longer[q]!);
    if (differing < 0 && !word) return { shape: template, p: 0, s: 0 };
    const shape = [...template];
    if (word) shape[q] = WILDCARD;
    if (differing < 0) return { shape, p: 0, s: 0 };
    shape[differing] = WILDCARD;
    return { shape, p: 0, s: 0 };
  }
  return null;
}

/**
 * Whether template[ti] stands for line[li], or is a literal where the line has a value in the same
 * quotes or brackets after a label both share (`host: "example.com"` against `host: "<*>"`).
 */
function near(template: readonly string[], line: readonly string[], ti: number, li: number): boolean {
  const t = template[ti]!;
  const l = line[li]!;
  if (fits(t, l)) return true;
  // A field's value (`exemplar=metrics` against `exemplar=audit.log`) varies as between lines of
  // one token count (kv-field.ts).
  if (!isPinnedToken(t) && !isPinnedToken(l) && differsInKeyValue(t, l)) return true;
  const label = template[ti - 1];
  return (
    label !== undefined &&
    label === line[li - 1] &&
    isLabelToken(label) &&
    !isPinnedToken(t) &&
    !isPinnedToken(l) &&
    !t.includes(WILDCARD) &&
    l.includes(WILDCARD) &&
    differsInValueSlot(t, l)
  );
}

/**
 * Whether the runs line[p, xEnd) and template[p, yEnd) follow the same label and are both texts
 * the service's labelled tails showed to be values (`Error: too many open files` against `Error:
 * Connection reset by peer`): then fewer shared tokens around them are evidence enough.
 */
function learnedAfterLabel(template: readonly string[], line: readonly string[], p: number, xEnd: number, yEnd: number, values: ValueWords | null): boolean {
  return (
    values !== null &&
    p >= 1 &&
    isLabelToken(template[p - 1]) &&
    template[p - 1] === line[p - 1] &&
    values.hasText(line, p, xEnd) &&
    values.hasText(template, p, yEnd)
  );
}

function elasticShapeAround(
  template: readonly string[],
  line: readonly string[],
  values: ValueWords | null,
): { shape: readonly string[]; p: number; s: number } | null {
  const nT = template.length;
  const nL = line.length;
  if (nT === nL || Math.abs(nT - nL) > MAX_LENGTH_DIFFERENCE) return null;
  const fields = bracketedFieldTail(template, line) ?? fieldTailShape(template, line);
  if (fields !== null) return fields;
  if (nL < nT) {
    const collapsed = collapseWildcardRuns(template);
    if (collapsed.length === nL && collapsed.every((t, i) => fits(t, line[i]!))) return { shape: collapsed, p: 0, s: 0 };
  }
  if (nT > nL) {
    const quoted = quotedAgainstOne(template, line);
    if (quoted !== null) return quoted;
  }
  const shortest = Math.min(nT, nL);
  let p = 0;
  while (p < shortest && near(template, line, p, p)) p++;
  let s = 0;
  while (s < shortest - p && near(template, line, nT - 1 - s, nL - 1 - s)) s++;
  const xEnd = nL - s;
  const yEnd = nT - s;
  if (p + s < MIN_SHARED_TOKENS && !learnedAfterLabel(template, line, p, xEnd, yEnd, values)) return null;
  const xLength = xEnd - p;
  const yLength = yEnd - p;
  if (xLength > MAX_RUN_TOKENS || yLength > MAX_RUN_TOKENS) return null;
  for (let i = p; i < xEnd; i++) if (isPinnedToken(line[i]!)) return null;
  for (let i = p; i < yEnd; i++) if (isPinnedToken(template[i]!)) return null;
  if (yLength === 0) {
    // The line has extra tokens: a wildcard of the template beside them takes them, with the
    // line's token it stood for.
    const before = isValueSlot(template[p - 1]);
    if (!before && !isValueSlot(template[yEnd])) return null;
    const from = before ? p - 1 : p;
    const to = before ? xEnd : xEnd + 1;
    return namesOnly(line, from, to, values) || labelledText(line, p, xEnd) ? { shape: template, p, s } : null;
  }
  if (xLength === 0) {
    // The template has extra tokens beside a wildcard the line has too: they join the wildcard.
    if (!isValueSlot(template[p - 1]) && !isValueSlot(template[yEnd])) return null;
    return namesOnly(template, p, yEnd, values) || labelledText(template, p, yEnd) ? { shape: [...template.slice(0, p), ...template.slice(yEnd)], p, s } : null;
  }
  const x0 = line[p]!;
  const y0 = template[p]!;
  const xLast = line[xEnd - 1]!;
  const yLast = template[yEnd - 1]!;
  const opening = sharedOpening(y0, x0);
  const closing = sharedClosing(yLast, xLast);
  const enclosed = opening !== '' && closesGroup(closing) && oneGroup(line, p, xEnd, opening) && oneGroup(template, p, yEnd, opening);
  // After a label, a text of words (no value inside: `illegal instruction......<*>` is a field of
  // a fixed layout), and after a program's name as first token only where its tail varies
  // (`ciod: … failed: <text>` is two events in the LogHub BGL labels, as in optional-tail.ts).
  const afterLabel =
    (p >= MIN_LABEL_CORE_TOKENS || (p >= MID_LABEL_SHARED_TOKENS && s >= MID_LABEL_SHARED_TOKENS)) &&
    isLabelToken(template[p - 1]) &&
    notProgramClause(template, p - 1) &&
    wordsOnly(line, p, xEnd) &&
    wordsOnly(template, p, yEnd);
  // Two texts the service's labelled tails showed to be values (value-words.ts).
  const learned = values !== null && values.hasText(line, p, xEnd) && values.hasText(template, p, yEnd);
  // An exception's name, alone or with its message after it (`java.util.concurrent.TimeoutException`
  // against `java.lang.IllegalStateException: closed`): one value, its message included.
  const exception = exceptionRun(line, p, xEnd) && exceptionRun(template, p, yEnd);
  if (!enclosed && !afterLabel && !learned && !exception) return null;
  // The slot keeps the quote both open with and the punctuation both end with: `"<*>`, `<*>.`.
  const slot = opening + WILDCARD + closing;
  return { shape: [...template.slice(0, p), slot, ...template.slice(yEnd)], p, s };
}

/**
 * Whether tokens[from, to) is a thrown thing: a compound name (`java.lang.IllegalStateException`),
 * alone or as a label followed by words (`…TimeoutException: Timeout expired`).
 */
function exceptionRun(tokens: readonly string[], from: number, to: number): boolean {
  const first = tokens[from];
  if (first === undefined || to <= from || !isNameLike(first)) return false;
  return to - from === 1 || (isLabelToken(first) && wordsOnly(tokens, from + 1, to));
}

/**
 * The template with each run of adjacent bare wildcards made one (`GOSSIP <*> <*>` gives `GOSSIP
 * <*>`): the masker joins adjacent values into one token, and a name beside a value is joined or
 * not (`db-1.lan` is a name, `v1.orders` a value), so one line's single `<*>` is another's `<*>
 * <*>`. A line fitting the collapsed template is of the template's event, which becomes the
 * collapsed one.
 */
export function collapseWildcardRuns(template: readonly string[]): readonly string[] {
  let runs = false;
  for (let i = 1; i < template.length && !runs; i++) runs = template[i] === WILDCARD && template[i - 1] === WILDCARD;
  if (!runs) return template;
  return template.filter((t, i) => !(t === WILDCARD && template[i - 1] === WILDCARD));
}

/**
 * The template's quoted value of several tokens against the line's quoted value of one token in the
 * same place, the rest fitting around it (`err="<*> <*>"` against `err="EOF"`): the template with
 * one slot there (`err="<*>"`); null when they are not so. The template's first token of the value
 * holds a wildcard (its words already varied), and it would fit the line's one token, so the
 * prefix scan below would run past it.
 */
function quotedAgainstOne(template: readonly string[], line: readonly string[]): { shape: readonly string[]; p: number; s: number } | null {
  const k = template.length - line.length + 1;
  let i = 0;
  while (i < line.length && !opensQuoteWithWildcard(template[i]!)) {
    if (!near(template, line, i, i)) return null;
    i++;
  }
  if (i === line.length || line.length - 1 < MIN_SHARED_TOKENS) return null;
  const t0 = template[i]!;
  const l = line[i]!;
  if (isPinnedToken(l)) return null;
  const opening = sharedOpening(t0, l);
  if (opening === '' || !isOpener(opening.charCodeAt(opening.length - 1))) return null;
  const closing = sharedClosing(template[i + k - 1]!, l);
  if (!closesGroup(closing) || !oneGroup(template, i, i + k, opening) || !oneGroup(line, i, i + 1, opening)) return null;
  for (let j = i + 1; j < line.length; j++) if (!near(template, line, j + k - 1, j)) return null;
  return { shape: [...template.slice(0, i), opening + WILDCARD + closing, ...template.slice(i + k)], p: i, s: line.length - i - 1 };
}

/** A token opening a quote (or brace) that it does not close, with a wildcard after the opening. */
function opensQuoteWithWildcard(token: string): boolean {
  const w = token.indexOf(WILDCARD);
  if (w <= 0) return false;
  for (let q = 0; q < w; q++) {
    const c = token.charCodeAt(q);
    if (isOpener(c)) return token.indexOf(c === 123 ? '}' : String.fromCharCode(c), q + 1) < 0;
  }
  return false;
}
