// The lint of all the TypeScript (src/, bench/, scripts/ and the web app in web/src/), run by
// `npm run lint` from the repository root. Type-aware: the rules read the compiler's types through tsconfig.json, with the
// TypeScript 5 installed beside this file (TypeScript 7, which builds the project, has no JS API).
import { fileURLToPath } from 'node:url';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The rules of all the code, server and web alike. */
const rules = {
  // A promise nobody awaits or catches loses its rejection: handle it, or write `void` with a reason.
  // node:test's test() and describe() return promises the runner itself awaits.
  '@typescript-eslint/no-floating-promises': [
    'error',
    { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
  ],
  // An async function where a callback's result is ignored (an event handler, forEach) drops its rejection too.
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  // A rejection with a non-Error loses the stack and the `cause` chain the failure reports print
  // (passing on a caught `unknown` is fine: it is whatever was thrown).
  '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
  // Plain `any` turns the type checker off; the few that stand say why in a disable comment.
  '@typescript-eslint/no-explicit-any': 'error',
  // A `let` read by a closure before its one assignment stays a `let`: as a `const` the read would throw.
  'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
  // Type-only imports say so, so that they cost nothing at run time and the reader sees which are which.
  '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
};

export default tseslint.config(
  {
    basePath: root,
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.d.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: root },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules,
  },
  {
    // The web app, type-aware through its own tsconfig (its tests through theirs), plus the rules of hooks.
    basePath: root,
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    ignores: ['**/*.d.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['./web/tsconfig.json', './web/tsconfig.test.json'], tsconfigRootDir: root },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin, 'react-hooks': reactHooks },
    rules: {
      ...rules,
      // Hooks called in the same order on every render, and effects that name what they read.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
