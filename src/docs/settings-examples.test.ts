/**
 * Every settings example in the docs and the README is one the real loader takes as printed: each
 * TOML block (and each TOML file a shell block writes with a here-document), and each `SVC__...=`
 * assignment in a shell block. The loader ignores unknown keys, so a misspelt key would pass
 * silently; every key of an example must also be one the loader read and found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { hashSync } from '@node-rs/argon2';
import { parse } from 'smol-toml';
import { loadSettings } from '../config/load.js';
import type { ComponentName } from '../config/settings.js';
import { envOverrides, isTable, SettingSource } from '../config/sources.js';
import { DOCS_DIR, fencedBlocks, type FencedBlock } from './fenced-blocks.test-support.js';

const COMPONENTS: ComponentName[] = ['all-in-one', 'ingest', 'writer', 'assembler', 'logminer', 'notifier', 'api', 'tool'];
/** What the split components need before anything else; all-in-one runs without. */
const SPLIT_REQUIRED = { SVC__KAFKA__BROKERS: 'kafka:9092', SVC__CLICKHOUSE__URL: 'http://clickhouse:8123' };

/**
 * The placeholders the docs print where a reader must put their own secret, and a value of the
 * kind each asks for. Anything else in an example is taken as printed.
 */
const PLACEHOLDERS: [string, string][] = [
  ['"$argon2id$v=19$m=19456,t=2,p=1$..."', JSON.stringify(hashSync('correct horse battery staple', { memoryCost: 1024, timeCost: 1, parallelism: 1 }))],
  ['"<base64 of 32 or more random bytes>"', JSON.stringify(Buffer.alloc(32, 7).toString('base64'))],
];

const dir = mkdtempSync(join(tmpdir(), 'svc-doc-settings-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** docs/*.md and the README, as fenced blocks. */
function allBlocks(): FencedBlock[] {
  const pages = readdirSync(DOCS_DIR).filter((name) => name.endsWith('.md'));
  return [...pages.flatMap((name) => fencedBlocks(name)), ...fencedBlocks('../README.md').map((block) => ({ ...block, page: 'README.md' }))];
}

interface TomlExample {
  where: string;
  text: string;
}

function tomlExamples(blocks: FencedBlock[]): TomlExample[] {
  const examples: TomlExample[] = blocks.filter((block) => block.lang === 'toml').map((block) => ({ where: `${block.page}:${block.line}`, text: block.text }));
  for (const block of blocks.filter((candidate) => candidate.lang === 'sh')) {
    for (const match of block.text.matchAll(/^cat > \S+\.toml <<'(\w+)'\n([\s\S]*?)\n\1$/gm))
      examples.push({ where: `${block.page}:${block.line} (here-document)`, text: `${match[2]}\n` });
  }
  return examples;
}

/** `SVC__X=value` assignments in shell blocks (after `export`, or before a command). */
function envExamples(blocks: FencedBlock[]): { where: string; name: string; value: string }[] {
  return blocks
    .filter((block) => block.lang === 'sh')
    .flatMap((block) =>
      [...block.text.matchAll(/(?:^|\s)(SVC__[A-Z0-9_]+)=(\S+)/gm)].map((match) => ({
        where: `${block.page}:${block.line}`,
        name: match[1]!,
        value: match[2]!,
      })),
    );
}

/** Dotted paths of a TOML document's values; an array of tables is one setting (notifier.targets). */
function keyPaths(table: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) => (isTable(value) ? keyPaths(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

/** Loads the settings of every component with `env`; returns the paths the loader found a value at. Throws what the loader throws. */
function loadEverywhere(env: NodeJS.ProcessEnv): Set<string> {
  const found = new Set<string>();
  const lookup = SettingSource.prototype.lookup;
  SettingSource.prototype.lookup = function (this: SettingSource, path: string) {
    const value = lookup.call(this, path);
    if (value !== undefined) found.add(path);
    return value;
  };
  try {
    for (const component of COMPONENTS) {
      try {
        loadSettings(component, component === 'all-in-one' ? env : { ...SPLIT_REQUIRED, ...env });
      } catch (error) {
        throw new Error(`${component}: ${(error as Error).message}`);
      }
    }
  } finally {
    SettingSource.prototype.lookup = lookup;
  }
  return found;
}

const blocks = allBlocks();

test('the docs have settings examples to check (TOML files and SVC__ variables)', () => {
  assert.ok(tomlExamples(blocks).length >= 4, 'TOML examples found');
  assert.ok(envExamples(blocks).length >= 3, 'SVC__ examples found');
});

for (const [index, example] of tomlExamples(blocks).entries()) {
  test(`TOML of ${example.where} loads in every component and every key is read`, () => {
    let text = example.text;
    for (const [placeholder, value] of PLACEHOLDERS) text = text.split(placeholder).join(value);
    const file = join(dir, `example-${index}.toml`);
    writeFileSync(file, text);
    const found = loadEverywhere({ SVC_CONFIG: file });
    const paths = keyPaths(parse(text) as Record<string, unknown>);
    assert.ok(paths.length > 0);
    assert.deepEqual(
      paths.filter((path) => !found.has(path)),
      [],
      'keys no component reads (misspelt, or not a setting)',
    );
  });
}

for (const example of envExamples(blocks)) {
  test(`${example.name}=${example.value} of ${example.where} loads in every component and is read`, () => {
    const found = loadEverywhere({ [example.name]: example.value });
    const [path] = envOverrides({ [example.name]: example.value }).keys();
    assert.ok(path !== undefined && found.has(path), `${example.name} names no setting the loader reads`);
  });
}
