import { isAscii } from 'node:buffer';
import { createReadStream, fstatSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { loadSettings } from '../config/load.js';
import { minerOptionsFrom } from '../mining/miner.js';
import { TemplateLines } from '../mining/templates-tool.js';
import { lineRanges } from './chunk-lines.js';
import { FingerprintThread, type TakeLines } from './fingerprint-pipeline.js';
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
 * which a tiny input (a few lines typed or echoed) never reaches. The first chunk of a large pipe is
 * often short (the writer is still starting), so waiting for 4 MiB, or for a full 1 MiB chunk, left
 * the thread booting ~140 ms later (1M lines: pairwise A/B medians 1.17 and 1.09 in favour of
 * starting at the first chunk).
 */
const PIPE_PIPELINE_AFTER_BYTES = 64 << 10;
/**
 * A line longer than this many bytes is mined by its head (the miner reads at most 64 tokens
 * anyway), so a file without newlines cannot make the tool hold it whole.
 */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * `svc templates FILE` (or `-` for standard input): mines the lines with the configured miner
 * settings and streams, for each input line in order, `{"template_id","template"}` with the
 * template as it stands when that line is mined. Memory holds one input chunk, its output and the
 * templates, whatever the input size: each chunk's output is written, and the write drained,
 * before the next chunk is read. Progress and the summary go to standard error. The service name
 * of every line is the file's base name (`stdin` for `-`).
 */
export async function runTemplates(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const file = args[0];
  if (file === undefined || args.length > 1) {
    process.stderr.write('usage: svc templates FILE   (FILE may be - for standard input)\n');
    return 2;
  }
  const settings = loadSettings('tool', env);
  const fingerprinter = settings.logminer.fingerprinter === 'gpu' ? 'scalar' : settings.logminer.fingerprinter;
  if (settings.logminer.fingerprinter === 'gpu') process.stderr.write('svc templates: logminer.fingerprinter gpu is not in this build; mining with scalar\n');
  const fromStdin = file === '-';
  const tool = new TemplateLines(minerOptionsFrom({ ...settings.logminer, fingerprinter }), fromStdin ? 'stdin' : basename(file));
  const input = fromStdin ? process.stdin : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  const startedMs = Date.now();
  let lines = 0;
  try {
    const progress = (n: number): void => {
      process.stderr.write(`svc templates: ${n} lines mined, ${tool.miner.templateCount()} templates\n`);
    };
    lines = await streamTemplates(gatherChunks(input, READ_CHUNK_BYTES, PIECE_WAIT_MS), process.stdout, tool, progress, { start: () => new FingerprintThread(tool.miner.maskOptions()), afterBytes: pipelineAfterBytes(file) });
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

/** Where lines and their fingerprints come from once the input is big enough: another thread. */
export interface LineSource {
  /** Starts on the lines of `text`; the result, called when the chunk is to be mined, gives them. */
  lines(text: string): TakeLines;
  close(): Promise<void>;
}

export interface FingerprintPipeline {
  start: () => LineSource;
  /** Input mined on this thread alone before the other thread starts (a small file is not worth one). */
  afterBytes: number;
}

/**
 * Chunks read and handed to the other thread ahead of the one being mined (bounded memory: a few
 * read chunks). The other thread fingerprints them in order; this one takes over whatever of a
 * chunk is left when it comes to mine it (see FingerprintThread).
 */
const CHUNKS_AHEAD = 4;

/**
 * Splits the input into lines (`\n`, an optional `\r` before it dropped; a last line without
 * newline counts when not empty) and writes each line's output, chunk by chunk, waiting for the
 * output to drain. Bytes up to a chunk's last newline are decoded at once (a newline byte is
 * never inside a UTF-8 character) and lines are mined in place in that text. With a pipeline,
 * once `afterBytes` have been read, fingerprinting (the stateless half of mining) runs on another
 * thread a few chunks ahead, and this thread looks lines up by fingerprint and mines the misses,
 * in input order, fingerprinting itself what of a chunk the other has not reached when it comes to
 * mine it. Returns the number of lines.
 */
export async function streamTemplates(input: AsyncIterable<Buffer>, output: Writable, tool: TemplateLines, progress: (lines: number) => void, pipeline?: FingerprintPipeline): Promise<number> {
  let carry: Buffer | null = null;
  // Head of a line longer than MAX_LINE_BYTES whose end is still to come (null when none).
  let overlong: string | null = null;
  let lines = 0;
  let lastProgressMs = Date.now();
  let outputError: Error | null = null;
  const onError = (error: Error): void => {
    outputError = error;
  };
  const failed = (): Error | null => outputError;
  let source: LineSource | null = null;
  let bytesRead = 0;
  const ahead: { text: string; take: TakeLines }[] = [];

  const writeChunk = async (text: string, ranges: Int32Array, fingerprints: Float64Array | null): Promise<void> => {
    const parts: Buffer[] = [];
    let bytes = 0;
    for (let at = 0; at < ranges.length; at += 2) {
      const start = ranges[at] as number;
      const end = ranges[at + 1] as number;
      const out = fingerprints === null ? tool.nextRange(text, start, end) : tool.nextRangeFingerprinted(text, start, end, fingerprints[at >> 1] as number);
      parts.push(out);
      bytes += out.length;
    }
    lines += ranges.length >> 1;
    await writeDrained(output, Buffer.concat(parts, bytes), failed);
  };
  const writeOldestAhead = async (): Promise<void> => {
    const next = ahead.shift();
    if (next === undefined) return;
    const { ranges, fingerprints } = await next.take();
    await writeChunk(next.text, ranges, fingerprints);
  };
  const writeAllAhead = async (): Promise<void> => {
    while (ahead.length > 0) await writeOldestAhead();
  };

  output.on('error', onError);
  try {
    for await (const raw of input) {
      let buf: Buffer = carry === null ? raw : Buffer.concat([carry, raw]);
      carry = null;
      if (overlong !== null) {
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
        await writeAllAhead();
        await writeDrained(output, tool.next(overlong), failed);
        overlong = null;
        lines++;
        buf = buf.subarray(nl + 1);
      }
      const last = buf.lastIndexOf(10);
      if (last < 0) {
        if (buf.length > MAX_LINE_BYTES) overlong = buf.toString('utf8', 0, MAX_LINE_BYTES);
        else carry = buf;
        continue;
      }
      if (last + 1 < buf.length) carry = buf.subarray(last + 1);
      const text = decodeLines(buf.subarray(0, last + 1));
      bytesRead += last + 1;
      if (source === null && pipeline !== undefined && tool.usesFingerprints() && bytesRead >= pipeline.afterBytes) source = pipeline.start();
      if (source === null) {
        await writeChunk(text, lineRanges(text), null);
      } else {
        ahead.push({ text, take: source.lines(text) });
        while (ahead.length > CHUNKS_AHEAD) await writeOldestAhead();
      }
      if (Date.now() - lastProgressMs >= PROGRESS_EVERY_MS) {
        lastProgressMs = Date.now();
        progress(lines);
      }
    }
    await writeAllAhead();
    if (overlong !== null || (carry !== null && carry.length > 0)) {
      let line = overlong ?? (carry as Buffer).toString('utf8');
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      await writeDrained(output, tool.next(line), failed);
      lines++;
    }
  } finally {
    output.off('error', onError);
    await source?.close();
  }
  return lines;
}

/**
 * The text of whole lines. ASCII bytes decode the same in Latin-1, whose copy into a one-byte string
 * is about three times faster than UTF-8 decoding (~45 ms less per 1M log lines); the ASCII check
 * runs at memory speed.
 */
function decodeLines(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
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
