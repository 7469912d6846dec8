// Where the corpora live in the repository.
import { fileURLToPath } from 'node:url';

/** testdata/log-corpora at the repository root. */
export function corporaDir() {
  return fileURLToPath(new URL('../../testdata/log-corpora', import.meta.url));
}
