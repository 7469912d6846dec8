/**
 * The log miner: one Drain tree and one fingerprint cache per service.
 *
 * Cache semantics keep `fingerprinter = off` and `scalar` identical: an entry remembers the leaf
 * and the leaf's version at the time; it is used only while that leaf is unchanged, in which
 * case the tree walk would return the same cluster (the path of a token sequence never changes
 * once made, and the leaf match is a pure function of the leaf's clusters and the tokens).
 */
import type { LogminerSettings } from '../config/settings.js';
import { rebindWatch, shownCount, startWatch, watchLine, watchLineBytes } from './constant-words.js';
import { DrainTree, templateText, type Cluster, type Leaf } from './drain.js';
import { FINGERPRINT_CACHE_ENTRIES, FingerprintCache } from './fingerprint-cache.js';
import { fingerprintRange, maskLine, type MaskOptions } from './masking.js';
import { warmUpMasking } from './masking-warmup.js';

export interface MinerOptions {
  simThreshold: number;
  maxClustersPerService: number;
  keepHttpStatus: boolean;
  /** false for `fingerprinter = off`. */
  useCache: boolean;
  /** Templates in a leaf from which literal words may generalize (not a setting; tuning only). */
  crowdedLeafTemplates?: number;
  /** Token levels of the prefix tree (not a setting; tuning only). */
  prefixLevels?: number;
}

/** Miner options from the logminer settings; `gpu` is refused in this build. */
export function minerOptionsFrom(
  settings: Pick<LogminerSettings, 'sim_threshold' | 'max_clusters_per_service' | 'keep_http_status' | 'fingerprinter'>,
): MinerOptions {
  if (settings.fingerprinter === 'gpu') {
    throw new Error('logminer.fingerprinter = "gpu" is not supported in this build (use off, scalar or parallel)');
  }
  return {
    simThreshold: settings.sim_threshold,
    maxClustersPerService: settings.max_clusters_per_service,
    keepHttpStatus: settings.keep_http_status,
    useCache: settings.fingerprinter !== 'off',
  };
}

/** Defaults of the contract's logminer table, for tools and tests. */
export const DEFAULT_MINER_OPTIONS: MinerOptions = {
  simThreshold: 0.5,
  maxClustersPerService: 5000,
  keepHttpStatus: true,
  useCache: true,
};

/** Read-only view of one template. Times are Unix milliseconds. */
export interface TemplateInfo {
  templateId: string;
  service: string;
  template: string;
  /** Lines mined into it since creation (since restore for restored templates: carried over). */
  count: number;
  firstSeenMs: number;
  lastSeenMs: number;
  maxSeverity: number;
  sample: string;
  overflow: boolean;
}

interface CacheEntry {
  fingerprint: number;
  cluster: Cluster;
  leaf: Leaf;
  version: number;
}

/** One service's tree and fingerprint cache (null when the cache is off). */
export interface ServiceState {
  tree: DrainTree;
  cache: FingerprintCache<CacheEntry> | null;
}

export class LogMiner {
  private readonly services = new Map<string, ServiceState>();
  private readonly mask: MaskOptions;

  constructor(readonly options: MinerOptions = DEFAULT_MINER_OPTIONS) {
    this.mask = { keepHttpStatus: options.keepHttpStatus };
    warmUpMasking();
  }

  /** Per-service state, created on first use. */
  serviceState(service: string): ServiceState {
    let state = this.services.get(service);
    if (state === undefined) {
      state = {
        tree: new DrainTree(service, {
          simThreshold: this.options.simThreshold,
          maxClusters: this.options.maxClustersPerService,
          crowdedLeafTemplates: this.options.crowdedLeafTemplates,
          prefixLevels: this.options.prefixLevels,
        }),
        cache: this.options.useCache ? new FingerprintCache<CacheEntry>(FINGERPRINT_CACHE_ENTRIES) : null,
      };
      this.services.set(service, state);
    }
    return state;
  }

  /** Mines one line; returns its template (whose fields are already updated). */
  mine(service: string, line: string, timeMs = 0, severity = 0): Cluster {
    return this.mineRange(service, line, 0, line.length, timeMs, severity);
  }

  /**
   * Mines the line text[start, end) as `mine` would mine that slice; the slice is made only when
   * the fingerprint cache misses (a reader's lines stay inside its buffer).
   */
  mineRange(service: string, text: string, start: number, end: number, timeMs = 0, severity = 0): Cluster {
    const state = this.serviceState(service);
    const fingerprint = state.cache === null ? 0 : fingerprintRange(text, start, end, this.mask);
    return this.mineInState(state, text, start, end, fingerprint, timeMs, severity);
  }

  /**
   * As `mineRange`, with the line's fingerprint computed elsewhere, under this miner's
   * `keepHttpStatus`: `fingerprintRange(text, start, end, mask)`, or BytesFingerprinter's over the
   * line's bytes (the same number for ASCII, and for any line equal exactly where the masked
   * tokens are).
   */
  mineRangeFingerprinted(service: string, text: string, start: number, end: number, fingerprint: number, timeMs = 0, severity = 0): Cluster {
    return this.mineInState(this.serviceState(service), text, start, end, fingerprint, timeMs, severity);
  }

  /**
   * The template of the line bytes[start, end) (UTF-8 or Latin-1) known by its fingerprint (as for
   * `mineRangeFingerprinted`) when that fingerprint is cached, its counts updated as mining the
   * line would; null otherwise, and nothing changes: then mine the line with
   * `mineRangeFingerprinted`. A cache hit needs no text, so a reader of bytes decodes only the
   * lines that miss; the bytes are read only when the template still watches words with a digit
   * (constant-words.ts), which a fingerprint does not tell apart (`ssh2` and `ssh3` mask alike).
   */
  mineCached(service: string, fingerprint: number, bytes: Uint8Array, start: number, end: number, timeMs = 0, severity = 0): Cluster | null {
    const cluster = cachedCluster(this.serviceState(service), fingerprint);
    if (cluster === null) return null;
    if (cluster.words !== null) watchWordsInBytes(cluster, bytes, start, end);
    record(cluster, timeMs, severity);
    return cluster;
  }

  /** The mask options fingerprints for `mineRangeFingerprinted` are computed under. */
  maskOptions(): MaskOptions {
    return { ...this.mask };
  }

  private mineInState(state: ServiceState, text: string, start: number, end: number, fingerprint: number, timeMs: number, severity: number): Cluster {
    let cluster: Cluster;
    if (state.cache !== null) {
      const cached = cachedCluster(state, fingerprint);
      if (cached !== null) {
        cluster = cached;
      } else {
        const line = start === 0 && end === text.length ? text : text.slice(start, end);
        const { tokens } = maskLine(line, this.mask);
        const added = state.tree.add(tokens, line);
        cluster = added.cluster;
        state.cache.set({ fingerprint, cluster, leaf: added.leaf, version: added.leaf.version });
      }
    } else {
      const line = start === 0 && end === text.length ? text : text.slice(start, end);
      cluster = state.tree.add(maskLine(line, this.mask).tokens, line).cluster;
    }
    if (cluster.words !== null || cluster.count === 0) this.watchWords(cluster, text, start, end);
    record(cluster, timeMs, severity);
    return cluster;
  }

  /**
   * Words with a digit the template may show (constant-words.ts): watched from its first line, and
   * checked in each line while a watch lasts (out of line: most lines' templates watch nothing).
   */
  private watchWords(cluster: Cluster, text: string, start: number, end: number): void {
    const words = cluster.words;
    if (words !== null) {
      const shown = shownCount(words);
      cluster.words =
        words.rawLength >= 0 ? watchLine(words, cluster.tokens, text, start, end) : rebindWatch(words, cluster.tokens, text, start, end, this.mask);
      if (shownCount(cluster.words) !== shown) cluster.textVersion++;
    } else if (cluster.count === 0 && cluster.leaf !== null) {
      // A watch starts with one line: it shows nothing yet.
      cluster.words = startWatch(cluster.tokens, text, start, end, this.mask);
    }
  }

  /** Every template, per service in creation order, overflow last. */
  templates(): TemplateInfo[] {
    const out: TemplateInfo[] = [];
    for (const { tree } of this.services.values()) {
      for (const cluster of tree.clusters) out.push(templateInfo(cluster, false));
      if (tree.overflow !== null) out.push(templateInfo(tree.overflow, true));
    }
    return out;
  }

  /** Number of templates held (overflow templates included). */
  templateCount(): number {
    let n = 0;
    for (const { tree } of this.services.values()) n += tree.clusters.length + (tree.overflow === null ? 0 : 1);
    return n;
  }

  /** Services in first-seen order. */
  serviceNames(): string[] {
    return [...this.services.keys()];
  }
}

/** As LogMiner's watchWords, for a line read as bytes (out of line: most templates watch nothing). */
function watchWordsInBytes(cluster: Cluster, bytes: Uint8Array, start: number, end: number): void {
  const words = cluster.words;
  if (words === null) return;
  const shown = shownCount(words);
  cluster.words = watchLineBytes(words, cluster.tokens, bytes, start, end);
  if (shownCount(cluster.words) !== shown) cluster.textVersion++;
}

/** The cluster cached for `fingerprint`, unless its leaf changed since (its templates may have). */
function cachedCluster(state: ServiceState, fingerprint: number): Cluster | null {
  const entry = state.cache?.get(fingerprint);
  return entry !== undefined && entry.leaf.version === entry.version ? entry.cluster : null;
}

function record(cluster: Cluster, timeMs: number, severity: number): void {
  if (cluster.count === 0 || timeMs < cluster.firstSeenMs) cluster.firstSeenMs = timeMs;
  if (timeMs > cluster.lastSeenMs) cluster.lastSeenMs = timeMs;
  if (severity > cluster.maxSeverity) cluster.maxSeverity = severity;
  cluster.count++;
}

/** Read-only view of a cluster. */
export function templateInfo(cluster: Cluster, overflow: boolean): TemplateInfo {
  return {
    templateId: cluster.id,
    service: cluster.service,
    template: templateText(cluster),
    count: cluster.count,
    firstSeenMs: cluster.firstSeenMs,
    lastSeenMs: cluster.lastSeenMs,
    maxSeverity: cluster.maxSeverity,
    sample: cluster.sample,
    overflow,
  };
}
