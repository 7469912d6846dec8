import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { loadSettings } from '../config/load.js';
import { minerOptionsFrom } from '../mining/miner.js';
import { TemplateLines } from '../mining/templates-tool.js';

/** Input read per chunk; output of one chunk is written before the next is read. */
const READ_CHUNK_BYTES = 1 << 20;
const PROGRESS_EVERY_MS = 2000;
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
    lines = await streamTemplates(input, process.stdout, tool, (n) => {
      process.stderr.write(`svc templates: ${n} lines mined, ${tool.miner.templateCount()} templates\n`);
    });
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

/**
 * Splits the input into lines (`\n`, an optional `\r` before it dropped; a last line without
 * newline counts when not empty) and writes each line's output, chunk by chunk, waiting for the
 * output to drain. Bytes up to a chunk's last newline are decoded at once (a newline byte is
 * never inside a UTF-8 character) and lines are mined in place in that text. Returns the number
 * of lines.
 */
export async function streamTemplates(input: Readable, output: Writable, tool: TemplateLines, progress: (lines: number) => void): Promise<number> {
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
  output.on('error', onError);
  try {
    for await (const raw of input as AsyncIterable<Buffer>) {
      let buf: Buffer = carry === null ? raw : Buffer.concat([carry, raw]);
      carry = null;
      if (overlong !== null) {
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
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
      const text = buf.toString('utf8', 0, last + 1);
      const parts: Buffer[] = [];
      let bytes = 0;
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        const out = tool.nextRange(text, start, end);
        parts.push(out);
        bytes += out.length;
        lines++;
        start = nl + 1;
      }
      await writeDrained(output, Buffer.concat(parts, bytes), failed);
      if (Date.now() - lastProgressMs >= PROGRESS_EVERY_MS) {
        lastProgressMs = Date.now();
        progress(lines);
      }
    }
    if (overlong !== null || (carry !== null && carry.length > 0)) {
      let line = overlong ?? (carry as Buffer).toString('utf8');
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      await writeDrained(output, tool.next(line), failed);
      lines++;
    }
  } finally {
    output.off('error', onError);
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
