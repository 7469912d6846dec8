/**
 * Which sources are tests or test support, and so never ship: `*.test.ts`, `*.test-support.ts`
 * beside the tests they serve, and the shared folders src/testing/ and src/e2e/. tsconfig.build.json
 * (the build that ships) excludes the same set; src/packaging.test.ts checks the two agree.
 */

/** `file` is a path under src/ with posix separators, e.g. `store/store-suite.test-support.ts`. */
export function isTestCode(file: string): boolean {
  return file.endsWith('.test.ts') || file.endsWith('.test-support.ts') || file.startsWith('testing/') || file.startsWith('e2e/');
}
