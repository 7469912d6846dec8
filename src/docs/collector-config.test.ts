/**
 * The Collector configurations in the docs are whole files: every component a pipeline names is
 * defined in its section (a `receivers: [otlp]` without a `receivers:` section is refused by the
 * Collector), data is batched, and every exporter retries and queues while svc or the broker is
 * away. The real Collector's `validate` checks the same files in the opt-in run
 * scripts/otelcol/validate-docs.sh (src/e2e/otelcol-docs.interop.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentedCollectorConfigs } from './collector-config.test-support.js';

/** Top-level sections and the names defined under each (two-space-indented keys). */
function sections(yaml: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of yaml.split('\n')) {
    const top = /^([a-z_]+):/.exec(line);
    if (top !== null) {
      current = [];
      found.set(top[1]!, current);
      continue;
    }
    const child = /^ {2}([a-z_/]+):/.exec(line);
    if (child !== null) current?.push(child[1]!);
  }
  return found;
}

/** `receivers: [otlp]`-style lists under service.pipelines, flow or block style. */
function pipelineReferences(yaml: string, kind: 'receivers' | 'processors' | 'exporters'): string[] {
  const service = yaml.slice(yaml.indexOf('\nservice:'));
  return [...service.matchAll(new RegExp(`${kind}: \\[([^\\]]*)\\]`, 'g'))].flatMap((match) => match[1]!.split(',').map((name) => name.trim()));
}

const configs = documentedCollectorConfigs();

test('both pages give a Collector configuration', () => {
  assert.deepEqual([...new Set(configs.map((config) => config.page))], ['docs/getting-started.md', 'docs/collector-kafka.md']);
});

for (const config of configs) {
  test(`${config.page}:${config.line} defines what its pipelines name, batches, and retries and queues in every exporter`, () => {
    const defined = sections(config.text);
    assert.deepEqual([...defined.keys()], ['receivers', 'processors', 'exporters', 'service']);
    for (const kind of ['receivers', 'processors', 'exporters'] as const) {
      const references = pipelineReferences(config.text, kind);
      assert.ok(references.length > 0, `the pipelines name ${kind}`);
      assert.deepEqual(
        references.filter((name) => !defined.get(kind)!.includes(name)),
        [],
        `${kind} named by a pipeline but not defined`,
      );
    }
    assert.deepEqual(defined.get('processors'), ['batch']);
    assert.equal(pipelineReferences(config.text, 'processors').filter((name) => name !== 'batch').length, 0);
    // Each exporter's block (up to the next two-space key) has both.
    const exporters = config.text.slice(config.text.indexOf('\nexporters:'), config.text.indexOf('\nservice:'));
    for (const block of exporters.split(/\n(?= {2}[a-z])/).slice(1)) {
      const name = /^ {2}([a-z_/]+):/.exec(block)?.[1];
      assert.match(block, /retry_on_failure:[^\n]*\n?[^\n]*enabled: true/, `${name} retries`);
      assert.match(block, /sending_queue:[^\n]*\n?[^\n]*enabled: true/, `${name} queues`);
    }
  });
}
