/** The developer tool `svc templates FILE`: the template of each input line, in input order. */
import { templateText, type Cluster } from './drain.js';
import { DEFAULT_MINER_OPTIONS, LogMiner, type MinerOptions } from './miner.js';

export interface LineTemplate {
  template_id: string;
  template: string;
}

/**
 * Mines lines one at a time as one service and gives each line's output JSON line (UTF-8, with
 * its newline) as its template stands when the line is mined, so output can stream while memory
 * stays bounded by the templates, not the input. The bytes of a template's line are cached and
 * rebuilt only when the template's leaf changed or the words it shows did (constant-words.ts).
 */
export class TemplateLines {
  readonly miner: LogMiner;
  private readonly json = new Map<Cluster, { version: number; textVersion: number; bytes: Buffer }>();

  constructor(
    options: MinerOptions = DEFAULT_MINER_OPTIONS,
    readonly service = 'file',
  ) {
    this.miner = new LogMiner(options);
  }

  /** `{"template_id":"…","template":"…"}\n` for the line text[start, end). */
  nextRange(text: string, start: number, end: number): Buffer {
    return this.outputOf(this.miner.mineRange(this.service, text, start, end));
  }

  /**
   * The output line of the line bytes[start, end), given its fingerprint over those bytes (see
   * BytesFingerprinter): the bytes are decoded (as `encoding`) only when the fingerprint is not
   * cached, which is rare once the templates are known.
   */
  nextBytes(bytes: Buffer, start: number, end: number, encoding: 'latin1' | 'utf8', fingerprint: number): Buffer {
    const cached = this.miner.mineCached(this.service, fingerprint, bytes, start, end);
    if (cached !== null) return this.outputOf(cached);
    const line = bytes.toString(encoding, start, end);
    return this.outputOf(this.miner.mineRangeFingerprinted(this.service, line, 0, line.length, fingerprint));
  }

  /** Whether lines are looked up by fingerprint (logminer.fingerprinter is not `off`). */
  usesFingerprints(): boolean {
    return this.miner.options.useCache;
  }

  private outputOf(cluster: Cluster): Buffer {
    const version = cluster.leaf === null ? 0 : cluster.leaf.version;
    const textVersion = cluster.textVersion;
    const cached = this.json.get(cluster);
    if (cached !== undefined && cached.version === version && cached.textVersion === textVersion) return cached.bytes;
    const bytes = Buffer.from(`${JSON.stringify({ template_id: cluster.id, template: templateText(cluster) })}\n`, 'utf8');
    this.json.set(cluster, { version, textVersion, bytes });
    return bytes;
  }

  /** The output line for one input line. */
  next(line: string): Buffer {
    return this.nextRange(line, 0, line.length);
  }
}

/** Each line's template as it stands when the line is mined (what the CLI streams). */
export function templatesForLines(lines: Iterable<string>, options: MinerOptions = DEFAULT_MINER_OPTIONS, service = 'file'): LineTemplate[] {
  const tool = new TemplateLines(options, service);
  const out: LineTemplate[] = [];
  for (const line of lines) out.push(JSON.parse(tool.next(line).toString('utf8')) as LineTemplate);
  return out;
}
