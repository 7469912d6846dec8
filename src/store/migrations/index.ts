/** Every migration, in version order. Append new ones; never edit one that has shipped. */

import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-trace-ops.js';
import { migration0003 } from './0003-logminer.js';
import { migration0004 } from './0004-log-search.js';
import { migration0005 } from './0005-log-projection.js';
import { migration0006 } from './0006-log-body-scan.js';
import { migration0007 } from './0007-log-time-delta.js';
import { migration0008 } from './0008-log-body-words.js';
import { migration0009 } from './0009-call-minutes.js';
import { migration0010 } from './0010-span-links.js';
import { migration0011 } from './0011-trace-spans.js';
import { migration0012 } from './0012-compress-blocks.js';
import { migration0013 } from './0013-logs-by-service.js';
import { migration0014 } from './0014-log-vertical-merges.js';
import { migration0015 } from './0015-trace-spans-blocks.js';
import { migration0016 } from './0016-merge-selector-base.js';
import { migration0017 } from './0017-vertical-merges.js';
import { migration0018 } from './0018-template-hits-merge-selector.js';
import type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
];
