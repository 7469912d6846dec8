/**
 * Span links (OTLP `Span.links`): the spans a span relates to beyond its parent, in its trace or
 * another (a batch consumer's inputs, a retry's first attempt). The Jaeger APIs serve them as
 * FOLLOWS_FROM references and as OTLP links.
 * links: JSON [{"trace_id", "span_id", "trace_state", "attrs": [[key, value], ...], "dropped_attrs"}, ...],
 * '' for a span without links (most spans, and every span stored before this migration).
 */

import type { Migration } from './migration.js';

export const migration0010: Migration = {
  version: 10,
  name: 'span-links',
  statements: ["ALTER TABLE spans ADD COLUMN IF NOT EXISTS links String DEFAULT '' CODEC(ZSTD(3))"],
};
