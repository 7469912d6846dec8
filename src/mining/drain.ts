/**
 * Drain-style template tree for one service: token count, then the first DEFAULT_PREFIX_LEVELS
 * (at most PREFIX_LEVELS) tokens, then a leaf holding clusters compared by positional similarity.
 */
import { shownTokens, unshowTokens, type WordWatch } from './constant-words.js';
import { WILDCARD, isPinnedToken } from './masking.js';
import { endsInFieldSlot, isAdverb, isFunctionWord } from './optional-run.js';
import { MIN_LABEL_CORE_TOKENS, coreLength, isLabel, labelsError, isLabelTail, remarksNest } from './optional-tail.js';
import { overflowTemplateId, templateId } from './template-id.js';
import { differsInFirstWordOnly, fitsButFirst } from './first-word.js';
import { introducesName } from './name-introducer.js';
import { isNameLike } from './name-like.js';
import { isPhraseWord } from './phrase.js';
import { differsInQuotedField, differsInValueSlot, followsLabel, followsPreposition } from './value-slot.js';
import { skeletonShape } from './token-shape.js';
import { MAX_LENGTH_DIFFERENCE, elasticFits, elasticShape } from './elastic.js';
import { ValueWords } from './value-words.js';
import { isHttpMethod } from './http-method.js';
import { isListLabel, isListValue, joinListValues } from './list-field.js';
import { isProgramName } from './program-name.js';
import { isVerbObject } from './verb-object.js';
import { differsInKeyValue, inKeyedQuote } from './kv-field.js';

/** Contract limits: tree depth 4 (root, length, two token levels), 100 children per node. */
export const TREE_DEPTH = 4;
export const PREFIX_LEVELS = TREE_DEPTH - 2;
/**
 * Token levels used by default: one. A second level keys on the second word, which in logs never
 * seen before is as often a name (`alice: session started`, `job nightly-backup started`) as a
 * word of the message, and a name there splits one event into a leaf per value; below the first
 * word, similarity decides. Measured: the LogHub ten lose 0.003 GA, our own corpora gain 0.02 GA
 * and 0.13 parsing accuracy (docs/log-mining.md).
 */
export const DEFAULT_PREFIX_LEVELS = 1;
export const MAX_CHILDREN = 100;

/** A group of lines sharing a token count and prefix path; `version` changes with any cluster. */
export interface Leaf {
  clusters: Cluster[];
  version: number;
  /**
   * Templates that became shorter (elastic.ts) stay in the leaf of their old token count in their
   * old form, which the lines they took there keep fitting; null while there are none (set on
   * every leaf, so that all leaves share one shape for V8: the cache reads a leaf's version on
   * every line).
   */
  forms: Map<Cluster, string[]> | null;
}

/** The tokens a leaf compares lines with for a template: its old form there, or its tokens. */
function formIn(leaf: Leaf, cluster: Cluster): string[] {
  return leaf.forms?.get(cluster) ?? cluster.tokens;
}

interface TreeNode {
  children: Map<string, TreeNode>;
  leaf: Leaf | null;
  /**
   * On a token-count node: changes with any leaf below it or a new child. A line that did not
   * match in its own first-word leaf is placed by looking at its siblings (first-word.ts), so its
   * cached placement holds only while none of them changed.
   */
  routing: Leaf | null;
  /** On a token-count node: templates whose first word became a variable (first-word.ts). */
  variableFirst: Leaf | null;
}

/** One template. `tokens` is mutated in place as the template generalizes. */
export interface Cluster {
  readonly id: string;
  readonly service: string;
  /** Masked tokens of the line that created the template (the id's input). */
  readonly signature: string;
  tokens: string[];
  count: number;
  firstSeenMs: number;
  lastSeenMs: number;
  maxSeverity: number;
  sample: string;
  /** null for the overflow template. Changes once, when its first word becomes a variable. */
  leaf: Leaf | null;
  /** Wildcards every line filled with one word with a digit, shown once enough lines agree (constant-words.ts). */
  words: WordWatch | null;
  /** Changes whenever the words shown change (LogMiner): a cache of the text keys on it and the leaf's version. */
  textVersion: number;
}

export interface DrainOptions {
  simThreshold: number;
  maxClusters: number;
  /** Default CROWDED_LEAF_TEMPLATES. */
  crowdedLeafTemplates?: number;
  /** Token levels of the tree, at most PREFIX_LEVELS; default DEFAULT_PREFIX_LEVELS. */
  prefixLevels?: number;
}

/** Text of the overflow template: it stands for any line. */
export const OVERFLOW_TEMPLATE = WILDCARD;

/**
 * A leaf holding this many templates is "crowded": from then on literal words may generalize to
 * wildcards there (plain Drain). Below it, words are kept literal, because on the LogHub sets a
 * differing word almost always marks a different event ("opened"/"closed", "bytes"/"values"),
 * while values (anything with a digit, paths, host names) are already masked. The crowding
 * fallback bounds the templates a word-valued variable (user names, say) can create per leaf:
 * 4 rather than 8 since each template a name creates splits its event. The LogHub ten alone favour
 * keeping words longer (leave-one-out picks 16 on most folds, +0.003 GA); the project's corpora of
 * unseen-log failure classes favour 4 (+0.01 GA, +0.1 parsing accuracy), and those are the logs
 * this default is for.
 */
export const CROWDED_LEAF_TEMPLATES = 4;

/**
 * Similarity of a line to a template, or -1 when they can never match (another core length, a
 * pinned token differs, or, while word changes are not allowed, a literal word differs or two
 * different remarks stand in the same place). `core` is the line's token count before its trailing
 * remarks (optional-tail.ts); the template, from the same leaf, has the same core, followed by its
 * remarks, or by one wildcard once lines with different remarks (or none) joined it. A line that
 * fits the template completely (every core position equal, a wildcard, or fitting a token with
 * wildcards such as `blk_<*>`; the same remarks, or the remark wildcard) scores at least 1: a line
 * once absorbed keeps fitting as the template only generalizes, which keeps replays from creating
 * templates. Among fitting templates the more specific one (more positions equal, the remarks
 * counting as one position) scores higher, so a line keeps its own template rather than moving to
 * an older one that generalized later (ids stay put under replay and after a restore). Otherwise
 * the score is the share of the positions holding the same word, values both have left out (below 1).
 */
export function similarity(
  template: readonly string[],
  line: readonly string[],
  allowWordChange: boolean,
  core: number = coreLength(line),
  values: ValueWords | null = null,
): number {
  const tn = template.length;
  const ln = line.length;
  if (tn < core) return -1;
  if (tn === 0 && ln === 0) return 2;
  // With as many remark tokens as the template, remarks compare like the rest, token by token.
  const compared = tn === ln ? ln : core;
  let tailSlot = 0;
  let tailFits = true;
  // The tails differ and only their label lets them: allowed when the cores fit (below).
  let tailByLabel = false;
  if (tn !== ln) {
    const anyRemark = tn === core + 1 && template[core] === WILDCARD;
    // A template from another leaf (a test, or a caller comparing freely) has another core.
    if (!anyRemark && coreLength(template) !== core) return -1;
    tailSlot = 1;
    tailFits = anyRemark;
    // Different remarks in the same place differ in a word: allowed only where words may change.
    if (!anyRemark && !allowWordChange && !remarksNest(template, line, core)) {
      if (!(isLabelTail(line, core) && isLabelTail(template, core))) return -1;
      tailByLabel = true;
    }
  }
  let equal = 0;
  let equalValues = 0;
  // Positions where both hold differing values of a list field (list-field.ts): no evidence either way.
  let listValues = 0;
  // Positions of a labelled tail whose words differ under its label (below): one text against
  // another, no evidence either way, as the values of a list.
  let tailValues = 0;
  let fits = true;
  // Whether the core fits: beside a core that fits, of more than MIN_LABEL_CORE_TOKENS tokens, a
  // labelled tail's words may all differ from the template's (an error's texts of one length:
  // `failed: Address already in use`, `failed: too many open files`); beside a core of four, the
  // text is as often the message itself (`MASTER <-> REPLICA sync: Finished with success`).
  let coreFits = true;
  // A labelled tail (optional-tail.ts) varies at once, word by word or in length.
  const labelled = isLabelTail(line, core);
  // Where words may change: the last position where plain words differed, the first of two such
  // positions side by side (phrase.ts), and the last equal word of the core.
  let lastWordChange = -2;
  let phraseAt = -1;
  let runStart = -1;
  let lastEqualWord = -1;
  for (let i = 0; i < compared; i++) {
    const t = template[i];
    const l = line[i];
    if (t === l) {
      equal++;
      if (i < core && t !== undefined && !t.includes(WILDCARD) && !isListLabel(line, i)) lastEqualWord = i;
      if (t !== undefined && (t.includes(WILDCARD) || isListLabel(line, i))) equalValues++;
    } else if (t === WILDCARD) {
      if (isPinnedToken(l)) return -1;
    } else {
      if (isPinnedToken(t) || isPinnedToken(l)) return -1;
      if (allowWordChange && keepsVerb(template, line, i, compared)) return -1;
      if (allowWordChange && i < core && isPhraseWord(t!, values) && isPhraseWord(l!, values)) {
        if (lastWordChange !== i - 1) runStart = i;
        // Not the text after a label both share (`"<*>": broken pipe; continuing anyway`): a value.
        else if (phraseAt < 0 && !(runStart > 0 && line[runStart - 1]!.endsWith(':') && template[runStart - 1] === line[runStart - 1])) phraseAt = i;
        lastWordChange = i;
      }
      // `blk_<*>` stands for `blk_<*>` and `blk_x`, like a wildcard does for any token.
      if (fitsPattern(t, l)) continue;
      // The values of a list's fields (list-field.ts) vary and weigh neither way: a line differing
      // there still fits, so it keeps its own event's template rather than one that took it all.
      if (isListValue(line, i) && isListValue(template, i)) {
        listValues++;
        continue;
      }
      // Tokens carrying a masked part (`user=<*>` against `user=`) differ in a value, not a word;
      // where either token is a compound name, the position holds names (`gamma` against
      // `alpha,beta`, `report` against `sync_ledger`), which vary, unless the word is a part of the
      // compound (`vote:` against `pre-vote:`); so does a word right after
      // `user` or `by` in both (name-introducer.ts); so does a word in the same quotes or brackets,
      // and the last word after a label such as `for:` or a preposition such as `because`
      // (value-slot.ts), and a word glued to a colon after such a preposition (`from <*>: timed
      // out`); so does a word beside an arrow (`stopped -> READY`).
      const tailText = labelled && i >= core && coreFits && (core > MIN_LABEL_CORE_TOKENS || labelsError(line, core - 1));
      if (tailText && !allowWordChange) tailValues++;
      if (
        !allowWordChange &&
        !tailText &&
        !t.includes(WILDCARD) &&
        !l.includes(WILDCARD) &&
        !((isNameLike(t) || isNameLike(l)) && !partOfCompound(t, l)) &&
        !differsInValueSlot(t, l) &&
        !differsInBoolean(t!, l!) &&
        !differsInQuotedField(t, l) &&
        !differsInKeyValue(t, l) &&
        !inKeyedQuote(template, line, i) &&
        !(i === compared - 1 && (followsLabel(template, line, i) || followsPreposition(template, line, i))) &&
        !(isLabel(t!) && isLabel(l!) && followsPreposition(template, line, i)) &&
        !(i > 0 && template[i - 1] === line[i - 1] && introducesName(line[i - 1], t, l)) &&
        !besideArrow(template, line, i) &&
        !(isHttpMethod(t) && isHttpMethod(l)) &&
        !(isAdverb(t!) && isAdverb(l!)) &&
        !(i === 1 && template[0] === line[0] && template[2] === line[2] && isVerbObject(line[0]!, t!, l!, line[2], compared)) &&
        // A learned value word (value-words.ts), in lines of 3 tokens or more; in a line of 2 both
        // words must be learned (`reading primary` against `reading default`): with one
        // (`disabled auth` against `disabled authentication`) the word is as often the message.
        !(values !== null && compared > 2 && (values.has(t) || values.has(l) || learnedInside(t!, l!, values))) &&
        !(values !== null && compared === 2 && values.has(t) && values.has(l))
      )
        return -1;
      fits = false;
      if (i < core) coreFits = false;
    }
  }
  // A labelled tail varies at once only beside a core that fits: with a value differing too, two
  // differences are too many to take at once (`error receiving quic connection: <text>` against
  // `error receiving h3 connection: <text>`, where `h3` is masked).
  if (tailByLabel && !fits && !allowWordChange) return -1;
  // Two plain words differing side by side, before a word both share: another phrase (phrase.ts).
  if (phraseAt >= 0 && lastEqualWord > phraseAt) return -1;
  const positions = compared + tailSlot;
  if (fits && tailFits) return 1 + equal / (positions + 1);
  // A line that does not fit: the share of equal words among the positions that are not values
  // both have. Values equal in both (`<*>,` against `<*>,`) are no evidence of one event, since every
  // line of that layout has them: with them counted, a long shared tail of fields (`, client: <*>,
  // server: <*>, request: "<*>"`) made lines of distinct events similar enough to merge.
  const wordPositions = positions - equalValues - listValues - tailValues;
  return wordPositions === 0 ? 0 : (equal - equalValues) / wordPositions;
}

/** The per-service miner state: prefix tree, clusters in creation order, overflow template. */
export class DrainTree {
  readonly clusters: Cluster[] = [];
  overflow: Cluster | null = null;
  private readonly root = new Map<number, TreeNode>();
  /**
   * Changes with any change anywhere in the tree: a line placed with a template of another token
   * count (elastic.ts) depends on leaves of several token counts, so its cached placement holds
   * only while none of them changed.
   */
  private readonly anyChange: Leaf = { clusters: [], version: 0, forms: null };
  private readonly ids = new Set<string>();
  /** Words this service's templates have shown to be values (value-words.ts). */
  private readonly values = new ValueWords();
  private readonly crowdedLeafTemplates: number;
  private readonly prefixLevels: number;

  constructor(
    readonly service: string,
    private readonly options: DrainOptions,
  ) {
    this.crowdedLeafTemplates = options.crowdedLeafTemplates ?? CROWDED_LEAF_TEMPLATES;
    this.prefixLevels = Math.min(PREFIX_LEVELS, options.prefixLevels ?? DEFAULT_PREFIX_LEVELS);
  }

  /** Leaf for a masked token sequence, creating the path when the node limits allow. */
  leafFor(tokens: readonly string[]): Leaf {
    // Keyed by the core's length: a trailing remark, present or not, leaves the line in its leaf.
    const core = coreLength(tokens);
    return this.leafUnder(this.lengthNode(core), tokens, core);
  }

  private lengthNode(core: number): TreeNode {
    let node = this.root.get(core);
    if (node === undefined) {
      node = { children: new Map(), leaf: null, routing: { clusters: [], version: 0, forms: null }, variableFirst: null };
      this.root.set(core, node);
    }
    return node;
  }

  private leafUnder(lengthNode: TreeNode, tokens: readonly string[], core: number): Leaf {
    let node = lengthNode;
    const levels = Math.min(this.prefixLevels, core);
    for (let d = 0; d < levels; d++) {
      const parent = node;
      const before = parent.children.size;
      node = childFor(parent, d === 0 ? firstKey(tokens, core) : treeKey(tokens[d]!));
      if (parent.children.size !== before) this.touch(lengthNode);
    }
    if (node.leaf === null) node.leaf = { clusters: [], version: 0, forms: null };
    return node.leaf;
  }

  /** Best cluster in a leaf (oldest wins ties) with its score, or null. */
  bestMatch(leaf: Leaf, tokens: readonly string[]): { cluster: Cluster; score: number } | null {
    let best: Cluster | null = null;
    let bestScore = -1;
    const crowded = leaf.clusters.length >= this.crowdedLeafTemplates;
    const core = coreLength(tokens);
    // Positions compared: the core, and the remarks as one when the line has any.
    const n = tokens.length === core ? core : core + 1;
    for (const cluster of leaf.clusters) {
      const score = similarity(formIn(leaf, cluster), tokens, crowded, core, this.values);
      if (score > bestScore) {
        bestScore = score;
        best = cluster;
        // An exact match cannot be beaten; an older template wins ties.
        if (score >= 1 + n / (n + 1)) break;
      }
    }
    return best === null ? null : { cluster: best, score: bestScore };
  }

  /** Assigns masked tokens to a cluster: merge into the best match, create one, or overflow. */
  add(tokens: readonly string[], sample: string): { cluster: Cluster; leaf: Leaf } {
    // A field list's value of several tokens is one value (list-field.ts): an event's lines keep one token count.
    tokens = joinListValues(tokens);
    const core = coreLength(tokens);
    const lengthNode = this.lengthNode(core);
    if (this.prefixLevels === 1 && core > 0) {
      // Its own first-word leaf first; then templates whose first word is a variable, or a
      // sibling's template that differs from the line in the first word only (first-word.ts).
      const own = lengthNode.children.get(firstKey(tokens, core));
      const ownLeaf = own === undefined ? null : own.leaf;
      if (ownLeaf !== null) {
        const match = this.bestMatch(ownLeaf, tokens);
        if (match !== null && match.score >= this.options.simThreshold) return this.join(match.cluster, ownLeaf, lengthNode, tokens, core);
      }
      const routed = this.routeByFirstWord(lengthNode, ownLeaf, tokens, core);
      if (routed !== null) return routed;
    }
    const leaf = this.leafUnder(lengthNode, tokens, core);
    const match = this.bestMatch(leaf, tokens);
    if (match !== null && match.score >= this.options.simThreshold) return this.join(match.cluster, leaf, lengthNode, tokens, core);
    const elastic = this.joinOtherLength(tokens);
    if (elastic !== null) return elastic;
    if (this.clusters.length >= this.options.maxClusters) return { cluster: this.overflowCluster(sample), leaf };
    const cluster = this.createCluster(tokens.map(detach), tokens.join(' '), detach(sample), leaf);
    leaf.clusters.push(cluster);
    leaf.version++;
    this.touch(lengthNode);
    return { cluster, leaf };
  }

  /** The line joins `cluster` of `leaf`, which generalizes where they differ. */
  private join(cluster: Cluster, leaf: Leaf, lengthNode: TreeNode, tokens: readonly string[], core: number): { cluster: Cluster; leaf: Leaf } {
    // In a crowded leaf a word may have been taken as a variable for want of room, not by evidence.
    const learn = leaf.clusters.length < this.crowdedLeafTemplates ? this.values : null;
    if (generalize(formIn(leaf, cluster), tokens, core, learn)) {
      leaf.version++;
      this.touch(lengthNode);
    }
    return { cluster, leaf };
  }

  /**
   * Places a line no template of its token count takes with a template of another token count
   * that equals it but for one run holding a value of several words (elastic.ts): among the
   * templates of the same first word (or of a variable first word), the nearest in length. The
   * template keeps its token count (a run of its own becomes one value slot at most).
   */
  private joinOtherLength(tokens: readonly string[]): { cluster: Cluster; leaf: Leaf } | null {
    const n = tokens.length;
    if (n === 0) return null;
    const key = firstKey(tokens, coreLength(tokens));
    let best: { cluster: Cluster; leaf: Leaf; lengthNode: TreeNode; shape: readonly string[] } | null = null;
    let bestDistance = MAX_LENGTH_DIFFERENCE + 1;
    // Templates are keyed by their core's length, which a trailing remark or tail leaves shorter.
    for (const [core, lengthNode] of this.root) {
      if (core > n + MAX_LENGTH_DIFFERENCE || core === 0) continue;
      for (const leaf of [lengthNode.children.get(key)?.leaf ?? null, lengthNode.variableFirst]) {
        if (leaf === null) continue;
        for (const cluster of leaf.clusters) {
          // A template's old form here (it became shorter since) still takes the lines that fit
          // it, unchanged: a line that fit it across token counts may not fit the shorter form.
          const old = leaf.forms?.get(cluster);
          const form = old ?? cluster.tokens;
          const distance = Math.abs(form.length - n);
          if (distance === 0 || distance > bestDistance) continue;
          const fitting = elasticFits(form, tokens, this.values);
          if (old !== undefined && !fitting) continue;
          const shape = fitting ? cluster.tokens : elasticShape(cluster.tokens, tokens, this.values);
          if (shape === null) continue;
          // The nearest token count first; among equals, the first found (lengths and templates
          // in the order they came).
          if (distance < bestDistance) {
            best = { cluster, leaf, lengthNode, shape };
            bestDistance = distance;
          }
        }
      }
    }
    if (best === null) return null;
    // The words of the line the template has nowhere stood in its value slot: values. Not an
    // optional function word (`was`, `the`): it stood nowhere, and it is no value.
    for (const token of tokens) if (!best.cluster.tokens.includes(token) && !isFunctionWord(token)) this.values.learn(token);
    // A shape equal to the template changes nothing (no version to bump, no cached line to drop).
    if (!sameTokens(best.shape, best.cluster.tokens)) this.reshape(best.cluster, best.leaf, best.lengthNode, best.shape);
    return { cluster: best.cluster, leaf: this.anyChange };
  }

  /**
   * Gives a template new tokens. When its core length changes it joins the leaf of the new length
   * and stays in its old leaf in its old form, so the lines it took there keep finding it.
   */
  private reshape(cluster: Cluster, leaf: Leaf, lengthNode: TreeNode, shape: readonly string[]): void {
    const newCore = coreLength(shape);
    const oldTokens = cluster.tokens;
    cluster.tokens = [...shape];
    leaf.version++;
    this.touch(lengthNode);
    if (newCore === coreLength(oldTokens)) return;
    (leaf.forms ??= new Map()).set(cluster, oldTokens);
    const newNode = this.lengthNode(newCore);
    const target = this.prefixLevels === 1 && leaf === lengthNode.variableFirst ? this.variableFirstLeaf(newNode) : this.leafUnder(newNode, shape, newCore);
    target.version = Math.max(target.version, leaf.version) + 1;
    target.clusters.push(cluster);
    cluster.leaf = target;
    this.touch(newNode);
  }

  /** Marks a change below a token-count node, and in the tree. */
  private touch(lengthNode: TreeNode): void {
    touch(lengthNode);
    this.anyChange.version++;
  }

  /** The leaf of templates whose first word is a variable, under a token-count node. */
  private variableFirstLeaf(lengthNode: TreeNode): Leaf {
    if (lengthNode.variableFirst === null) lengthNode.variableFirst = { clusters: [], version: 0, forms: null };
    return lengthNode.variableFirst;
  }

  /**
   * Places a line its own first-word leaf has no template for: with a template whose first word
   * is a variable when one takes it, or with a sibling's template that matches it but for the
   * first word, which then becomes a variable and moves to the variable-first leaf. The placement
   * depends on all leaves of the token count, so it is cached against the node's routing version.
   */
  private routeByFirstWord(lengthNode: TreeNode, ownLeaf: Leaf | null, tokens: readonly string[], core: number): { cluster: Cluster; leaf: Leaf } | null {
    const routing = lengthNode.routing!;
    const varLeaf = lengthNode.variableFirst;
    if (varLeaf !== null) {
      // A line joins such a template only when it fits it, or fits it but for the first word:
      // the templates come from many first words, so a merely similar one is no evidence.
      let best: Cluster | null = null;
      let bestScore = -1;
      for (const cluster of varLeaf.clusters) {
        const form = formIn(varLeaf, cluster);
        const score = similarity(form, tokens, false, core, this.values);
        if (score > bestScore && (score >= 1 || fitsButFirst(form, tokens, core, this.values))) {
          best = cluster;
          bestScore = score;
        }
      }
      if (best !== null) {
        this.join(best, varLeaf, lengthNode, tokens, core);
        return { cluster: best, leaf: routing };
      }
    }
    // Lines opening with a name (`worker-3`, `job_cleanup`) share the wildcard child, where their
    // template's first token became a wildcard. A line opening with a plain word the service showed
    // to be a value (`orders excluded minGzipSize <*>`) is of that event when it fits the template,
    // as a learned word elsewhere varies (value-words.ts, lines of 4 tokens or more); a word never
    // seen to vary keeps its own (`maxSessionTimeout set to <*>` beside `autopurge.purgeInterval
    // set to <*>`: two events in the LogHub Zookeeper labels).
    const wildLeaf = lengthNode.children.get(WILDCARD)?.leaf ?? null;
    if (wildLeaf !== null && wildLeaf !== ownLeaf && core > 3 && this.values.has(tokens[0])) {
      for (const cluster of wildLeaf.clusters) {
        const form = formIn(wildLeaf, cluster);
        if (form[0] === WILDCARD && similarity(form, tokens, false, core, this.values) >= 1) {
          this.join(cluster, wildLeaf, lengthNode, tokens, core);
          return { cluster, leaf: routing };
        }
      }
    }
    for (const child of lengthNode.children.values()) {
      const leaf = child.leaf;
      if (leaf === null || leaf === ownLeaf) continue;
      for (let c = 0; c < leaf.clusters.length; c++) {
        const cluster = leaf.clusters[c]!;
        // A template's old form stays where it is (its lines find it there).
        if (leaf.forms?.has(cluster) === true || !differsInFirstWordOnly(cluster.tokens, tokens, core, this.values)) continue;
        leaf.clusters.splice(c, 1);
        leaf.version++;
        const target = this.variableFirstLeaf(lengthNode);
        // Above any version the template was seen under, for callers caching its text by version.
        target.version = Math.max(target.version, leaf.version) + 1;
        target.clusters.push(cluster);
        cluster.leaf = target;
        cluster.tokens[0] = commonShape(cluster.tokens[0]!, tokens[0]!);
        generalize(cluster.tokens, tokens, core, this.values);
        this.touch(lengthNode);
        return { cluster, leaf: routing };
      }
    }
    return null;
  }

  /** Re-inserts a stored template (restore after restart), keeping its id. */
  restoreCluster(storedSignature: readonly string[], storedText: string[], id: string): Cluster {
    // The stored text shows words with a digit where every line had the same (constant-words.ts):
    // lines are compared with the wildcards they stand for, and the watch goes on.
    // Stored before list values were joined (list-field.ts), a template takes the form lines have now.
    const signatureTokens = joinListValues(storedSignature);
    const { tokens: storedTokens, watch } = unshowTokens(storedText, signatureTokens.length);
    const joined = joinListValues(storedTokens);
    const tokens = joined === storedTokens ? storedTokens : [...joined];
    const words = joined === storedTokens ? watch : null;
    // A template whose first word became a variable lives in the leaf of variable first words (so
    // does one of the wildcard child whose first token generalized there: lines find it either way).
    // A template that became shorter across token counts (elastic.ts) lives in the leaf of its
    // tokens; lines of its old length find it from theirs.
    // (A remark wildcard, or a first word become a variable, changes no token count this way.)
    const signatureCore = coreLength(signatureTokens);
    const tokensCore = coreLength(tokens);
    // So does one that became longer, ending in a slot for extra fields (optional-run.ts).
    const shorter =
      (tokens.length < signatureTokens.length && tokensCore < signatureCore) ||
      (tokens.length > signatureTokens.length && tokensCore > signatureCore && endsInFieldSlot(tokens));
    const core = shorter ? tokensCore : signatureCore;
    const lengthNode = this.lengthNode(core);
    const movedFirst = this.prefixLevels === 1 && core > 0 && tokens.length > 0 && tokens[0] !== signatureTokens[0];
    const leaf = movedFirst ? this.variableFirstLeaf(lengthNode) : this.leafUnder(lengthNode, shorter ? tokens : signatureTokens, core);
    this.touch(lengthNode);
    const cluster: Cluster = {
      id,
      service: this.service,
      signature: signatureTokens.join(' '),
      tokens,
      count: 0,
      firstSeenMs: 0,
      lastSeenMs: 0,
      maxSeverity: 0,
      sample: '',
      leaf,
      words,
      textVersion: 0,
    };
    this.ids.add(id);
    this.clusters.push(cluster);
    leaf.clusters.push(cluster);
    leaf.version++;
    return cluster;
  }

  /** The largest number of children of any tree node (the limit is MAX_CHILDREN). */
  widestNode(): number {
    let widest = 0;
    const walk = (node: TreeNode): void => {
      widest = Math.max(widest, node.children.size);
      for (const child of node.children.values()) walk(child);
    };
    for (const node of this.root.values()) walk(node);
    return widest;
  }

  /** The overflow template, created on first use. */
  overflowCluster(sample: string): Cluster {
    if (this.overflow === null) {
      this.overflow = {
        id: overflowTemplateId(this.service),
        service: this.service,
        signature: OVERFLOW_TEMPLATE,
        tokens: [OVERFLOW_TEMPLATE],
        count: 0,
        firstSeenMs: 0,
        lastSeenMs: 0,
        maxSeverity: 0,
        sample,
        leaf: null,
        words: null,
        textVersion: 0,
      };
    }
    return this.overflow;
  }

  private createCluster(tokens: string[], signature: string, sample: string, leaf: Leaf): Cluster {
    let salt = 0;
    let id = templateId(this.service, signature);
    while (this.ids.has(id)) id = templateId(this.service, signature, ++salt);
    this.ids.add(id);
    const cluster: Cluster = {
      id,
      service: this.service,
      signature,
      tokens,
      count: 0,
      firstSeenMs: 0,
      lastSeenMs: 0,
      maxSeverity: 0,
      sample,
      leaf,
      words: null,
      textVersion: 0,
    };
    this.clusters.push(cluster);
    return cluster;
  }
}

/**
 * A copy of `s` that shares no memory with the text it was cut from: a template lives long, and
 * a slice of a read buffer would keep the whole buffer alive (V8 slices strings of 13+ chars).
 */
function detach(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/**
 * The key a token takes in the prefix tree: a token holding a value (`rdd_<*>`, `user=<*>`) keys
 * as the wildcard, since its name part may vary with the value (`rdd_<*>`, `broadcast_<*>`).
 */
function treeKey(token: string): string {
  return token !== WILDCARD && (token.includes(WILDCARD) || isNameLike(token)) ? WILDCARD : token;
}

/**
 * The key of a line's first tree level: its first token's, or, after a program's name
 * (program-name.ts), the name's with the next token's.
 */
/**
 * Tokens a line needs for its program's name to key with the next word: in a shorter one
 * (`status: stopped -> READY`, `registered: <*> as: <*>`) the word after a label is as often its
 * value.
 */
const MIN_PROGRAM_LINE_TOKENS = 5;

function firstKey(tokens: readonly string[], core: number): string {
  const first = tokens[0]!;
  return core >= MIN_PROGRAM_LINE_TOKENS && isProgramName(first) ? `${first} ${treeKey(tokens[1]!)}` : treeKey(first);
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Marks a change below a token-count node (see TreeNode.routing). */
function touch(lengthNode: TreeNode): void {
  lengthNode.routing!.version++;
}

/** Child for a token: its own, else the wildcard child once the node is (almost) full. */
function childFor(node: TreeNode, token: string): TreeNode {
  let child = node.children.get(token);
  if (child !== undefined) return child;
  const size = node.children.size;
  const hasWildcard = node.children.has(WILDCARD);
  // A slot is kept for the wildcard child so that the node never exceeds MAX_CHILDREN.
  const room = hasWildcard ? size < MAX_CHILDREN : size + 1 < MAX_CHILDREN;
  const key = token === WILDCARD || !room ? WILDCARD : token;
  child = node.children.get(key);
  if (child === undefined) {
    child = { children: new Map(), leaf: null, routing: null, variableFirst: null };
    node.children.set(key, child);
  }
  return child;
}

/**
 * Turns differing core positions of the template into wildcards, keeping the punctuation both
 * tokens begin and end with (`<*>,` from `a1,` and `LOCAL(x),`), and differing trailing remarks
 * into one wildcard; true when it changed.
 */
function generalize(template: string[], line: readonly string[], core: number, values: ValueWords | null): boolean {
  let changed = false;
  // A labelled tail of several words that differs becomes one wildcard whatever its length, as
  // remarks do; a tail of one word generalizes like any token (`"<*>"`).
  const labelled = template.length === line.length && line.length - core > 1 && isLabelTail(line, core) && !tailsEqual(template, line, core);
  const compared = template.length === line.length && !labelled ? line.length : core;
  for (let i = 0; i < compared; i++) {
    const t = template[i]!;
    const l = line[i]!;
    if (t === WILDCARD) {
      if (t !== l) values?.learn(l);
    } else if (t !== l && !fitsPattern(t, l)) {
      template[i] = commonShape(t, l);
      if (template[i] === WILDCARD && values !== null) {
        values.learn(t);
        values.learn(l);
      }
      changed = true;
    }
  }
  if (compared === core && (template.length !== line.length || labelled) && !(template.length === core + 1 && template[core] === WILDCARD)) {
    // Two texts of one labelled tail are values: so are they in the service's other events.
    if (values !== null && isLabelTail(line, core)) {
      values.learnText(template, core, template.length);
      values.learnText(line, core, line.length);
    }
    template.length = core;
    template.push(WILDCARD);
    changed = true;
  }
  return changed;
}

/** Whether the tokens from `core` on are equal, or the template's fit the line's. */
function tailsEqual(template: readonly string[], line: readonly string[], core: number): boolean {
  for (let i = core; i < line.length; i++) {
    const t = template[i]!;
    if (t !== line[i] && t !== WILDCARD && !fitsPattern(t, line[i]!)) return false;
  }
  return true;
}

/** Characters a value is commonly wrapped or followed by; kept around a generalized token. */
function isAffixChar(c: number): boolean {
  // ( ) [ ] { } " ' = : , ; / . @ |
  return (
    c === 40 ||
    c === 41 ||
    c === 91 ||
    c === 93 ||
    c === 123 ||
    c === 125 ||
    c === 34 ||
    c === 39 ||
    c === 61 ||
    c === 58 ||
    c === 44 ||
    c === 59 ||
    c === 47 ||
    c === 46 ||
    c === 64 ||
    c === 124
  );
}

/**
 * The two tokens piece by piece when they share their punctuation skeleton (`<*>[<*>]:`), else
 * `prefix<*>suffix` with their common leading and trailing punctuation.
 */
export function commonShape(a: string, b: string): string {
  const skeleton = skeletonShape(a, b);
  if (skeleton !== null) return skeleton;
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p) && isAffixChar(a.charCodeAt(p))) p++;
  let q = 0;
  while (q < max - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q) && isAffixChar(a.charCodeAt(a.length - 1 - q))) q++;
  if (p === 0 && q === 0) return WILDCARD;
  return a.slice(0, p) + WILDCARD + a.slice(a.length - q);
}

/**
 * Whether `token` fits a template token holding wildcards (other than the bare wildcard): its
 * literal parts appear in order, the first at the start and the last at the end.
 */
export function fitsPattern(pattern: string, token: string): boolean {
  let w = pattern.indexOf(WILDCARD);
  if (w < 0 || w > token.length) return false;
  for (let k = 0; k < w; k++) if (pattern.charCodeAt(k) !== token.charCodeAt(k)) return false;
  let at = w;
  let p = w + WILDCARD.length;
  for (;;) {
    w = pattern.indexOf(WILDCARD, p);
    if (w < 0) {
      const tail = pattern.length - p;
      if (token.length - at < tail) return false;
      for (let k = 0; k < tail; k++) if (pattern.charCodeAt(p + k) !== token.charCodeAt(token.length - tail + k)) return false;
      return true;
    }
    if (w > p) {
      const found = token.indexOf(pattern.slice(p, w), at);
      if (found < 0) return false;
      at = found + (w - p);
    }
    p = w + WILDCARD.length;
  }
}

/**
 * A plain word against a compound word that ends or begins with it (`vote:` against `pre-vote:`,
 * `voting` against `pre-voting`): a prefix or suffix makes another word of the message, not
 * another name.
 */
function partOfCompound(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (isNameLike(short) || short.length < 3) return false;
  const at = long.length - short.length;
  if (long.endsWith(short)) return isJoiner(long.charCodeAt(at - 1));
  if (long.startsWith(short)) return isJoiner(long.charCodeAt(short.length));
  return false;
}

function isJoiner(c: number): boolean {
  return c === 45 || c === 95 || c === 46;
}

/**
 * Whether position `i` stands beside an arrow (`->`, `=>`, `-->`) the template and the line share:
 * an arrow joins two states or two ends (`status: stopped -> READY`, `<*> => <*>`), values a log
 * statement prints, not words of its message.
 */
function besideArrow(template: readonly string[], line: readonly string[], i: number): boolean {
  const before = line[i - 1];
  const after = line[i + 1];
  return (before !== undefined && before === template[i - 1] && isArrow(before)) || (after !== undefined && after === template[i + 1] && isArrow(after));
}

function isArrow(token: string): boolean {
  return token === '->' || token === '=>' || token === '-->';
}

/**
 * Whether position `i`, where the template and the line hold different words, holds the verb of
 * a clause after `not` or `to` (`Could not open <*>`, `failed to take snapshot`) even in a crowded
 * group: there the verb names the event (`failed to copy snapshot` is another), where elsewhere a
 * word that differs in a crowded group is taken as a value. Not the line's last token (`updated
 * from <*> to <*>`, `connect to <*>` end in values), nor a name. Not even a word the service
 * showed to be a value elsewhere: verbs are learned so too (`open` in a path's event), and with
 * them Raft fell back from 0.987 to 0.962.
 */
function keepsVerb(template: readonly string[], line: readonly string[], i: number, compared: number): boolean {
  if (i === 0 || i >= compared - 1) return false;
  const marker = line[i - 1];
  if ((marker !== 'not' && marker !== 'to') || template[i - 1] !== marker) return false;
  const t = template[i]!;
  const l = line[i]!;
  return !t.includes(WILDCARD) && !l.includes(WILDCARD) && !isNameLike(t) && !isNameLike(l);
}

/** Template text of a cluster. */
export function templateText(cluster: Cluster): string {
  return cluster.words === null ? cluster.tokens.join(' ') : shownTokens(cluster.tokens, cluster.words).join(' ');
}

const BOOLEANS: ReadonlySet<string> = new Set(['true', 'false', 'True', 'False', 'TRUE', 'FALSE']);

/**
 * Whether two tokens differ only in a boolean (`status[true]:` against `status[false]:`,
 * `isServerLoader=true` against `isServerLoader=false`, `(true)` against `(false)`): a flag a
 * statement prints, never a word of its message.
 */
function differsInBoolean(a: string, b: string): boolean {
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let q = 0;
  while (q < max - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q)) q++;
  // Widen to whole words: the differing part may share letters with the common ends (`true`/`false` share `e`).
  while (p > 0 && isLetter(a.charCodeAt(p - 1))) p--;
  while (q > 0 && isLetter(a.charCodeAt(a.length - q))) q--;
  const x = a.slice(p, a.length - q);
  const y = b.slice(p, b.length - q);
  return x !== y && BOOLEANS.has(x) && BOOLEANS.has(y);
}

function isLetter(c: number): boolean {
  const l = c | 32;
  return l >= 97 && l <= 122;
}

/**
 * Whether two tokens wrapped in the same punctuation (`(inventory)` against `(metrics)`, `users,`
 * against `orders,`) hold, inside it, a word the service learned as a value.
 */
function learnedInside(a: string, b: string, values: ValueWords): boolean {
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p) && isAffixChar(a.charCodeAt(p))) p++;
  let q = 0;
  while (q < max - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q) && isAffixChar(a.charCodeAt(a.length - 1 - q))) q++;
  if (p === 0 && q === 0) return false;
  return values.has(a.slice(p, a.length - q)) || values.has(b.slice(p, b.length - q));
}
