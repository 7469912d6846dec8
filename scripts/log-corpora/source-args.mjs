// Reading a logging call's arguments out of source text: enough of a lexer to skip strings,
// comments and nested brackets, split the arguments at top-level commas, and cut a format
// expression into its string literals and the values joined to them.

const OPEN = '([{';
const CLOSE = ')]}';

/** Where the string literal starting at `i` ends (index after it), or -1 when none starts there. */
function stringEnd(src, i, lang) {
  let j = i;
  if (lang === 'Rust' && src[j] === 'r' && (src[j + 1] === '"' || src[j + 1] === '#')) {
    let hashes = 0;
    j++;
    while (src[j] === '#') {
      hashes++;
      j++;
    }
    if (src[j] !== '"') return -1;
    const close = '"' + '#'.repeat(hashes);
    const end = src.indexOf(close, j + 1);
    return end < 0 ? -1 : end + close.length;
  }
  if (lang === 'Python') {
    while (/[rbfuRBFU]/.test(src[j] ?? '') && j - i < 2) j++;
    if (src.startsWith('"""', j) || src.startsWith("'''", j)) {
      const end = src.indexOf(src.slice(j, j + 3), j + 3);
      return end < 0 ? -1 : end + 3;
    }
  }
  const q = src[j];
  if (q !== '"' && q !== "'" && !(q === '`' && (lang === 'JavaScript' || lang === 'Go'))) return -1;
  if (q === "'" && (lang === 'C' || lang === 'C++' || lang === 'Java' || lang === 'Rust' || lang === 'Go')) {
    // A character literal: skip it whole.
    const end = src.indexOf("'", j + (src[j + 1] === '\\' ? 3 : 2));
    return end < 0 ? -1 : end + 1;
  }
  for (let k = j + 1; k < src.length; k++) {
    if (src[k] === '\\' && q !== '`') k++;
    else if (src[k] === q) return k + 1;
    else if (src[k] === '\n' && q !== '`') return -1;
  }
  return -1;
}

/** Whether a string literal could start at `i` (not in the middle of a name). */
function literalStart(src, i, lang) {
  const prev = src[i - 1] ?? ' ';
  if (/[A-Za-z0-9_]/.test(prev)) return false;
  return stringEnd(src, i, lang) > i;
}

/**
 * The arguments of a call whose open parenthesis is just before `start`: their texts (trimmed),
 * up to the matching close parenthesis. Null when the call does not close (macro soup, end of file).
 */
export function readArgs(src, start, lang) {
  const args = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < src.length && i < start + 8000; i++) {
    const c = src[i];
    if (literalStart(src, i, lang)) {
      i = stringEnd(src, i, lang) - 1;
      continue;
    }
    if (c === '/' && src[i + 1] === '/' && lang !== 'Python') {
      i = src.indexOf('\n', i);
      if (i < 0) return null;
      continue;
    }
    if (c === '/' && src[i + 1] === '*' && lang !== 'Python') {
      i = src.indexOf('*/', i + 2) + 1;
      if (i <= 0) return null;
      continue;
    }
    if (c === '#' && lang === 'Python') {
      i = src.indexOf('\n', i);
      if (i < 0) return null;
      continue;
    }
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) {
      if (depth === 0) {
        const last = src.slice(from, i).trim();
        if (last !== '' || args.length > 0) args.push(last);
        return { args, end: i + 1 };
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      args.push(src.slice(from, i).trim());
      from = i + 1;
    }
  }
  return null;
}

/** Decodes the escapes of a literal's body (common to C, Go, Java, JavaScript, Python, Rust). */
function unescape(body) {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u\{?[0-9a-fA-F]{1,6}\}?|[0-7]{1,3}|.)/gs, (_, e) => {
    switch (e[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'x':
        return String.fromCharCode(parseInt(e.slice(1), 16));
      case 'u':
        return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
      case '\n':
        return '';
      default:
        return /^[0-7]+$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : e;
    }
  });
}

/** A literal's text and whether it interpolates (`f"..."`, JavaScript template, Scala `s"..."`). */
function literalText(raw, lang) {
  let s = raw;
  let interpolated = false;
  if (lang === 'Rust' && s.startsWith('r')) return { text: s.replace(/^r#*"/, '').replace(/"#*$/, ''), interpolated };
  if (lang === 'Python') {
    const prefix = /^[rbfuRBFU]*/.exec(s)[0];
    interpolated = /f/i.test(prefix);
    const raw2 = /r/i.test(prefix);
    s = s.slice(prefix.length);
    const q = s.startsWith('"""') || s.startsWith("'''") ? 3 : 1;
    const body = s.slice(q, s.length - q);
    return { text: raw2 ? body : unescape(body), interpolated };
  }
  if (s.startsWith('`')) return { text: lang === 'Go' ? s.slice(1, -1) : unescape(s.slice(1, -1)), interpolated: lang === 'JavaScript' };
  return { text: unescape(s.slice(1, -1)), interpolated };
}

/**
 * Cuts a format argument into pieces: `{ lit, interpolated }` for string literals and `{ expr }`
 * for values joined to them with `concat` (`+`, `<<`) or, in C, macros between adjacent literals
 * (`"%" PRIu64`). Null when the argument holds no literal.
 */
export function formatPieces(arg, lang, concat) {
  let text = arg.trim();
  // gettext wrappers around a C format: _("...") / N_("...") / gettext("...").
  const wrapped = /^(?:_|N_|gettext)\(([\s\S]*)\)$/.exec(text);
  if (wrapped) text = wrapped[1].trim();
  const pieces = [];
  let i = 0;
  let sawLiteral = false;
  let expr = '';
  const flushExpr = () => {
    const e = expr.trim();
    if (e !== '') pieces.push({ expr: e });
    expr = '';
  };
  let depth = 0;
  while (i < text.length) {
    if (depth === 0 && literalStart(text, i, lang)) {
      const end = stringEnd(text, i, lang);
      const pending = expr.trim();
      if (pending !== '' && !(concat && pending.endsWith(concat))) {
        // A C macro between literals (PRIu64 and friends) stands for a conversion's tail.
        if (/^PRI[diouxX](?:8|16|32|64|MAX|PTR)$/.test(pending)) {
          pieces.push({ text: 'llu', interpolated: false });
          expr = '';
        } else if (pending !== '' && pieces.length > 0) return null;
      }
      expr = concat && pending.endsWith(concat) ? pending.slice(0, -concat.length) : expr;
      flushExpr();
      pieces.push(literalText(text.slice(i, end), lang));
      sawLiteral = true;
      i = end;
      // Skip the operator after the literal.
      const rest = text.slice(i);
      const op = concat ? new RegExp(`^\\s*${concat.replace(/[+<]/g, '\\$&')}`).exec(rest) : null;
      if (op) i += op[0].length;
      continue;
    }
    const c = text[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    if (concat && depth === 0 && text.startsWith(concat, i)) {
      flushExpr();
      i += concat.length;
      continue;
    }
    expr += c;
    i++;
  }
  flushExpr();
  if (!sawLiteral) return null;
  // Adjacent literals are one literal ("a" "b", "%" PRIu64).
  const merged = [];
  for (const p of pieces) {
    const prev = merged.at(-1);
    if (prev && 'text' in prev && 'text' in p && prev.interpolated === p.interpolated) prev.text += p.text;
    else merged.push({ ...p });
  }
  return merged;
}

/** 1-based line number of a position. */
export function lineOf(src, pos) {
  let n = 1;
  for (let i = 0; i < pos; i++) if (src.charCodeAt(i) === 10) n++;
  return n;
}
