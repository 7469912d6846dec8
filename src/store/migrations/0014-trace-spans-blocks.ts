/**
 * trace_spans compresses in blocks of up to 64 KiB instead of 16 KiB (migration 11). Its blocks
 * still end with every granule (min_compress_block_size stays 4 KiB), so a read by id decompresses
 * the same granule it did, in one or two blocks instead of several; what changes is the write: each
 * 16 KiB block restarted the compressor and compressed the repetitive packed texts worse, in every
 * insert and again in every merge. Measured with the spans of the ingest bench, the table's inserts
 * and merges cost less CPU per span and it takes fewer bytes, and reads by id were as fast (the
 * README's figures). Parts written before keep their blocks until a merge rewrites them.
 */

import type { Migration } from './migration.js';

export const migration0014: Migration = {
  version: 14,
  name: 'trace-spans-blocks',
  statements: ['ALTER TABLE trace_spans MODIFY SETTING max_compress_block_size = 65536'],
};
