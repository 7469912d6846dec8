import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DOCS_DIR = new URL('../../../docs/', import.meta.url).pathname;

export interface FencedBlock {
  /** The page, as `docs/<name>.md`. */
  page: string;
  /** The info string after the opening fence (`sh`, `toml`, `yaml`, ...). */
  lang: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
  text: string;
}

/** Every fenced code block (```) of a docs page, in order. */
export function fencedBlocks(name: string): FencedBlock[] {
  const page = `docs/${name}`;
  const lines = readFileSync(join(DOCS_DIR, name), 'utf8').split('\n');
  const blocks: FencedBlock[] = [];
  // A block inside a list item is indented; its lines lose that indent.
  let open: { lang: string; line: number; indent: string; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^( *)```(\S*)\s*$/.exec(text);
    if (open === undefined) {
      if (fence !== null) open = { lang: fence[2] ?? '', line: index + 1, indent: fence[1] ?? '', body: [] };
    } else if (fence !== null && fence[2] === '') {
      blocks.push({ page, lang: open.lang, line: open.line, text: open.body.join('\n') + '\n' });
      open = undefined;
    } else {
      open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
    }
  });
  if (open !== undefined) throw new Error(`${page}:${open.line}: fenced block never closed`);
  return blocks;
}
