/**
 * Generalizing two tokens of the same punctuation skeleton piece by piece: `com.acme.sync[<*>]:`
 * and `org.example.indexer[<*>]:` give `<*>[<*>]:`, so a template keeps the brackets and colons
 * its lines share rather than only their common ends (`<*>]:`), and reads like the lines.
 */
import { CLASS_UTF16, C_DELIM } from './masking-rules.js';
import { WILDCARD } from './masking.js';

/** A segment delimiter of masking (`=`, `:`, `[`, …). */
function isDelimiter(c: number): boolean {
  return (CLASS_UTF16[c]! & C_DELIM) !== 0;
}

/** A token cut into delimiters (one character each), wildcards and the text between them. */
function pieces(token: string): string[] {
  const out: string[] = [];
  let text = '';
  for (let i = 0; i < token.length; i++) {
    if (token.startsWith(WILDCARD, i)) {
      if (text !== '') out.push(text);
      text = '';
      out.push(WILDCARD);
      i += WILDCARD.length - 1;
      continue;
    }
    if (isDelimiter(token.charCodeAt(i))) {
      if (text !== '') out.push(text);
      text = '';
      out.push(token[i]!);
    } else text += token[i]!;
  }
  if (text !== '') out.push(text);
  return out;
}

function isDelimiterPiece(piece: string): boolean {
  return piece.length === 1 && isDelimiter(piece.charCodeAt(0));
}

/**
 * The piecewise generalization of two tokens with the same delimiters in the same order (a
 * differing piece of text becomes `<*>`, runs of wildcards one), or null when their skeletons
 * differ or nothing of either token but its delimiters would be kept.
 */
export function skeletonShape(a: string, b: string): string | null {
  const pa = pieces(a);
  const pb = pieces(b);
  if (pa.length !== pb.length) return null;
  let out = '';
  let lastWildcard = false;
  let keptText = false;
  for (let i = 0; i < pa.length; i++) {
    // pa and pb have the same length.
    const x = pa[i]!;
    const y = pb[i]!;
    const xDelim = isDelimiterPiece(x);
    if (xDelim !== isDelimiterPiece(y)) return null;
    if (xDelim) {
      if (x !== y) return null;
      out += x;
      lastWildcard = false;
    } else if (x === y && x !== WILDCARD) {
      out += x;
      lastWildcard = false;
      keptText = true;
    } else if (!lastWildcard) {
      out += WILDCARD;
      lastWildcard = true;
    }
  }
  return keptText || out !== WILDCARD ? out : null;
}
