/**
 * The xxHash functions of @node-rs/xxhash, loaded with `require`. The package is CommonJS: imported
 * from an ES module, Node first scans its 29 KB loader for export names, which cost ~20 ms of every
 * start of a process that mines (`svc templates` included); required, it loads in ~8 ms.
 */
import { createRequire } from 'node:module';
import type * as XxHash from '@node-rs/xxhash';

export const { xxh3, xxh32 } = createRequire(import.meta.url)('@node-rs/xxhash') as typeof XxHash;
