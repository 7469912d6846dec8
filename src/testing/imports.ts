/**
 * The module specifiers a TypeScript source imports: `import … from`, `export … from`, bare
 * `import '…'` and `import('…')`, type-only ones included. Comments, string contents, template
 * literals and regular expressions are skipped by a small lexer, so an import written inside a
 * comment or a string is not taken for one.
 */

/** After one of these characters (or at the start), a `/` opens a regular expression, not a division. */
const BEFORE_REGEX = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));
const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await']);

/**
 * The source with every comment blanked and every quoted string replaced by `'#n'`, where
 * strings[n] is its content; template literals and regular expressions are blanked whole.
 */
function mask(source: string): { code: string; strings: string[] } {
  const strings: string[] = [];
  let code = '';
  /** Open `${` of template literals: the brace depth inside each. */
  const templateBraces: number[] = [];
  let inTemplate = false;
  let i = 0;
  const lastSignificant = (): string => {
    const trimmed = code.trimEnd();
    return trimmed.length === 0 ? '' : trimmed[trimmed.length - 1];
  };
  const lastWord = (): string => /([A-Za-z_$][\w$]*)\s*$/.exec(code)?.[1] ?? '';
  while (i < source.length) {
    const ch = source[i];
    if (inTemplate) {
      if (ch === '\\') i += 2;
      else if (ch === '`') {
        inTemplate = false;
        code += ' ';
        i += 1;
      } else if (ch === '$' && source[i + 1] === '{') {
        inTemplate = false;
        templateBraces.push(0);
        code += ' ';
        i += 2;
      } else i += 1;
      continue;
    }
    const next = source[i + 1];
    if (ch === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      code += ' ';
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== ch && source[j] !== '\n') {
        if (source[j] === '\\') {
          text += source.slice(j, j + 2);
          j += 2;
        } else text += source[j++];
      }
      code += `'#${strings.length}'`;
      strings.push(text);
      i = j + 1;
      continue;
    }
    if (ch === '`') {
      inTemplate = true;
      code += ' ';
      i += 1;
      continue;
    }
    if (ch === '/' && (BEFORE_REGEX.has(lastSignificant()) || lastSignificant() === '' || KEYWORDS_BEFORE_REGEX.has(lastWord()))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n') {
        if (source[j] === '\\') j += 2;
        else if (inClass) {
          if (source[j] === ']') inClass = false;
          j += 1;
        } else if (source[j] === '[') {
          inClass = true;
          j += 1;
        } else if (source[j] === '/') break;
        else j += 1;
      }
      code += ' ';
      i = j + 1;
      continue;
    }
    if (templateBraces.length > 0) {
      if (ch === '{') templateBraces[templateBraces.length - 1] += 1;
      else if (ch === '}') {
        if (templateBraces[templateBraces.length - 1] === 0) {
          templateBraces.pop();
          inTemplate = true;
          code += ' ';
          i += 1;
          continue;
        }
        templateBraces[templateBraces.length - 1] -= 1;
      }
    }
    code += ch;
    i += 1;
  }
  return { code, strings };
}

/** Every module specifier the source imports or re-exports from, in order of appearance. */
export function importSpecifiers(source: string): string[] {
  const { code, strings } = mask(source);
  const found: { at: number; specifier: string }[] = [];
  // `from '…'` ends every import and re-export with bindings; `import '…'` is a bare import.
  for (const match of code.matchAll(/(?<![\w$.])(?:from|import)\s*'#(\d+)'/g)) found.push({ at: match.index, specifier: strings[Number(match[1])] });
  for (const match of code.matchAll(/(?<![\w$.])import\s*\(\s*'#(\d+)'\s*[,)]/g)) found.push({ at: match.index, specifier: strings[Number(match[1])] });
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.specifier);
}
