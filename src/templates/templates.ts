import { isAscii } from 'node:buffer';
import { createReadStream, fstatSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { loadSettings } from '../config/load.js';
import { minerOptionsFrom } from '../mining/miner.js';
import { TemplateLines } from '../mining/templates-tool.js';
import { BytesFingerprinter, scannerModule } from './wasm-fingerprint.js';
import { lineRanges } from './chunk-lines.js';
import { FingerprintWorker, type FingerprintedLines, type FingerprintSource } from './fingerprint-worker.js';
import { gatherChunks } from './gather-chunks.js';

/** Input read per chunk; output of one chunk is written before the next is read. */
const READ_CHUNK_BYTES = 1 << 20;
const PROGRESS_EVERY_MS = 2000;
/** Longest wait for the next piece of a pipe while a chunk is being gathered (see gather-chunks.ts). */
const PIECE_WAIT_MS = 1;
/**
 * A second thread costs ~30 ms to start; below a few MiB of input one thread finishes sooner. An
 * input whose size is known (a file) and above this starts the thread at once, so that it boots
 * while this thread mines the first chunks.
 */
const PIPELINE_AFTER_BYTES = 4 << 20;
/**
 * A pipe's size is unknown: it starts the thread once more than one pipe buffer (64 KiB) has come,
 * which a tiny input (a few lines typed or echoed) never reaches.
 */
const PIPE_PIPELINE_AFTER_BYTES = 64 << 10;
/** Chunks handed to the other thread ahead of the one being mined (bounded memory: a few read chunks). */
const CHUNKS_AHEAD = 4;
/**
 * Share of each chunk (its first lines) this thread fingerprints itself once the other thread runs:
 * where it starts, its bounds, and its steps up (this thread waited for the other) and down (it did
 * not). Mining and writing alone took this thread about as long as the fingerprints took the other,
 * so a fixed all-there split left this one waiting ~25 % of the time at some moments and the other
 * at others; the machine's speed moves by up to half from one minute to the next.
 */
const HERE_SHARE_START = 0.125;
const HERE_SHARE_MAX = 0.5;
const HERE_SHARE_UP = 1 / 16;
const HERE_SHARE_DOWN = 1 / 32;
/**
 * A line longer than this many bytes is mined by its head (the miner reads at most 64 tokens
 * anyway), so a file without newlines cannot make the tool hold it whole.
 */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * `svc templates FILE` (or `-` for standard input): mines the lines with the configured miner
 * settings and streams, for each input line in order, `{"template_id","template"}` with the
 * template as it stands when that line is mined. Memory holds a few input chunks, their output and
 * the templates, whatever the input size: each chunk's output is written, and the write drained,
 * before more is read than the chunks handed to the other thread. Progress and the summary go to standard error. The service name
 * of every line is the file's base name (`stdin` for `-`).
 */
export async function runTemplates(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const file = args[0];
  const usage = 'usage: svc templates FILE   (FILE may be - for standard input; ./--help names a file called --help)\n';
  if (file === '--help' || file === '-h') {
    process.stdout.write(usage);
    return 0;
  }
  if (file === undefined || args.length > 1) {
    process.stderr.write(usage);
    return 2;
  }
  const settings = loadSettings('tool', env);
  const fingerprinter = settings.logminer.fingerprinter === 'gpu' ? 'scalar' : settings.logminer.fingerprinter;
  if (settings.logminer.fingerprinter === 'gpu') process.stderr.write('svc templates: logminer.fingerprinter gpu is not in this build; mining with scalar\n');
  const fromStdin = file === '-';
  const tool = new TemplateLines(minerOptionsFrom({ ...settings.logminer, fingerprinter }), fromStdin ? 'stdin' : basename(file));
  if (tool.usesFingerprints()) {
    try {
      scannerModule();
    } catch (error) {
      process.stderr.write(`svc templates: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const input = fromStdin ? process.stdin : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  const startedMs = Date.now();
  let lines = 0;
  try {
    const progress = (n: number): void => {
      process.stderr.write(`svc templates: ${n} lines mined, ${tool.miner.templateCount()} templates\n`);
    };
    const pipeline = { start: () => new FingerprintWorker(tool.miner.maskOptions().keepHttpStatus), afterBytes: pipelineAfterBytes(file) };
    lines = await streamTemplates(gatherChunks(input, READ_CHUNK_BYTES, PIECE_WAIT_MS), process.stdout, tool, progress, pipeline);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    // The reader of our output went away (`| head`): not an error of ours.
    if (err.code === 'EPIPE') return 0;
    process.stderr.write(`svc templates: cannot read ${file}: ${err.message}\n`);
    return 1;
  }
  const seconds = (Date.now() - startedMs) / 1000;
  process.stderr.write(`svc templates: ${lines} lines, ${tool.miner.templateCount()} templates in ${seconds.toFixed(2)} s\n`);
  return 0;
}

/** Bytes to mine on this thread alone before the fingerprint thread starts, for the input named `file`. */
function pipelineAfterBytes(file: string): number {
  let bytes: number | null = null;
  try {
    const stats = file === '-' ? fstatSync(0) : statSync(file);
    if (stats.isFile()) bytes = stats.size;
  } catch {
    // Not our concern here: reading the input reports it.
  }
  if (bytes === null) return PIPE_PIPELINE_AFTER_BYTES;
  return bytes >= PIPELINE_AFTER_BYTES ? 0 : PIPELINE_AFTER_BYTES;
}

/** The other thread, started once `afterBytes` of input have come (a small input is not worth one). */
export interface FingerprintPipeline {
  start: () => FingerprintSource;
  afterBytes: number;
}

/**
 * Splits the input into lines (`\n`, an optional `\r` before it dropped; a last line without
 * newline counts when not empty) and writes each line's output, chunk by chunk, waiting for the
 * output to drain. The bytes up to a chunk's last newline (a newline byte is never inside a UTF-8
 * character) are fingerprinted as they are by the WebAssembly scanner, and a line is decoded only
 * when its fingerprint is not cached yet. With a pipeline, once `afterBytes` have been read and the
 * other thread has started, chunks are fingerprinted there, a few ahead of the one this thread
 * mines; until it has started, this thread fingerprints them itself. Returns the number of lines.
 */
export async function streamTemplates(
  input: AsyncIterable<Buffer>,
  output: Writable,
  tool: TemplateLines,
  progress: (lines: number) => void,
  pipeline?: FingerprintPipeline,
): Promise<number> {
  let carry: Buffer | null = null;
  // Head of a line longer than MAX_LINE_BYTES whose end is still to come (null when none).
  let overlong: Buffer | null = null;
  let lines = 0;
  let lastProgressMs = Date.now();
  let outputError: Error | null = null;
  const onError = (error: Error): void => {
    outputError = error;
  };
  const failed = (): Error | null => outputError;
  // Null when the miner looks nothing up by fingerprint (logminer.fingerprinter = off).
  const scanner = tool.usesFingerprints() ? new BytesFingerprinter(tool.miner.maskOptions().keepHttpStatus) : null;

  let source: FingerprintSource | null = null;
  let bytesRead = 0;
  // Each chunk handed over: its first lines to fingerprint here (null: none), the rest there.
  const ahead: { here: Buffer | null; there: Promise<FingerprintedLines> | null; settled: boolean }[] = [];
  let hereShare = HERE_SHARE_START;

  /** Writes the output of `lineCount` lines of `bytes` at `ranges`, with their `fingerprints`. */
  const mineFingerprinted = async (
    bytes: Buffer,
    encoding: 'latin1' | 'utf8',
    lineCount: number,
    ranges: Int32Array,
    fingerprints: Float64Array,
  ): Promise<void> => {
    const parts: Buffer[] = new Array<Buffer>(lineCount);
    let outputBytes = 0;
    for (let line = 0; line < lineCount; line++) {
      const out = tool.nextBytes(bytes, ranges[2 * line] as number, ranges[2 * line + 1] as number, encoding, fingerprints[line] as number);
      parts[line] = out;
      outputBytes += out.length;
    }
    lines += lineCount;
    await writeDrained(output, Buffer.concat(parts, outputBytes), failed);
  };
  const mineOldestAhead = async (): Promise<void> => {
    const next = ahead.shift();
    if (next === undefined) return;
    if (next.here !== null) await mineHere(next.here);
    if (next.there === null) return;
    // Waiting here means the other thread is behind: take a larger share of the next chunks.
    hereShare = next.settled ? Math.max(0, hereShare - HERE_SHARE_DOWN) : Math.min(HERE_SHARE_MAX, hereShare + HERE_SHARE_UP);
    const chunk = await next.there;
    await mineFingerprinted(chunk.bytes, isAscii(chunk.bytes) ? 'latin1' : 'utf8', chunk.lineCount, chunk.ranges, chunk.fingerprints);
  };
  /** Hands `chunk` over: its first lines (about `hereShare` of its bytes, up to a newline) stay here. */
  const handOver = (chunk: Buffer, to: FingerprintSource): void => {
    const nl = hereShare === 0 ? -1 : chunk.indexOf(10, Math.floor(chunk.length * hereShare));
    const split = nl < 0 ? 0 : nl + 1;
    const entry: (typeof ahead)[number] = { here: split === 0 ? null : chunk.subarray(0, split), there: null, settled: false };
    if (split < chunk.length) {
      entry.there = to.fingerprint(chunk.subarray(split));
      entry.there.then(
        () => (entry.settled = true),
        () => (entry.settled = true),
      );
    }
    ahead.push(entry);
  };
  const mineAllAhead = async (): Promise<void> => {
    while (ahead.length > 0) await mineOldestAhead();
  };

  /** Mines the lines of `bytes` (which end with a newline), after those handed over, on this thread. */
  const mineLines = async (bytes: Buffer): Promise<void> => {
    await mineAllAhead();
    await mineHere(bytes);
  };
  /** Fingerprints and mines the lines of `bytes` (which end with a newline) on this thread and writes their output. */
  const mineHere = async (bytes: Buffer): Promise<void> => {
    const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
    if (scanner === null) {
      const text = bytes.toString(encoding);
      const ranges = lineRanges(text);
      const parts: Buffer[] = [];
      for (let at = 0; at < ranges.length; at += 2) parts.push(tool.nextRange(text, ranges[at] as number, ranges[at + 1] as number));
      lines += ranges.length >> 1;
      await writeDrained(output, Buffer.concat(parts), failed);
      return;
    }
    scanner.load(bytes);
    for (let from = 0; from < bytes.length; from = scanner.nextLineOffset()) {
      const count = scanner.fingerprintLines(from);
      if (count === 0) break;
      // The batch's ranges and fingerprints live in the scanner: read before the next batch.
      await mineFingerprinted(bytes, encoding, count, scanner.ranges, scanner.fingerprints);
    }
  };

  /** Mines one line given as bytes without its newline (a head of an overlong line, or the last line). */
  const mineLine = async (bytes: Buffer): Promise<void> => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    const newline = Buffer.allocUnsafe(end + 1);
    bytes.copy(newline, 0, 0, end);
    newline[end] = 10;
    await mineLines(newline);
  };

  output.on('error', onError);
  try {
    for await (const raw of input) {
      let buf: Buffer = carry === null ? raw : Buffer.concat([carry, raw]);
      carry = null;
      if (overlong !== null) {
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
        await mineLine(overlong);
        overlong = null;
        buf = buf.subarray(nl + 1);
      }
      const last = buf.lastIndexOf(10);
      if (last < 0) {
        if (buf.length > MAX_LINE_BYTES) overlong = Buffer.from(buf.subarray(0, MAX_LINE_BYTES));
        else carry = buf;
        continue;
      }
      if (last + 1 < buf.length) carry = buf.subarray(last + 1);
      const chunk = buf.subarray(0, last + 1);
      bytesRead += chunk.length;
      if (source === null && pipeline !== undefined && scanner !== null && bytesRead >= pipeline.afterBytes) source = pipeline.start();
      if (source !== null && source.ready()) {
        handOver(chunk, source);
        while (ahead.length > CHUNKS_AHEAD) await mineOldestAhead();
      } else {
        await mineLines(chunk);
      }
      if (Date.now() - lastProgressMs >= PROGRESS_EVERY_MS) {
        lastProgressMs = Date.now();
        progress(lines);
      }
    }
    await mineAllAhead();
    if (overlong !== null) await mineLine(overlong);
    else if (carry !== null && carry.length > 0) await mineLine(carry);
  } finally {
    output.off('error', onError);
    await source?.close();
  }
  return lines;
}

async function writeDrained(output: Writable, bytes: Buffer, failed: () => Error | null): Promise<void> {
  const error = failed();
  if (error !== null) throw error;
  if (bytes.length === 0 || output.write(bytes)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (): void => {
      output.off('drain', done);
      output.off('error', fail);
      resolve();
    };
    const fail = (e: Error): void => {
      output.off('drain', done);
      output.off('error', fail);
      reject(e);
    };
    output.on('drain', done);
    output.on('error', fail);
  });
}
