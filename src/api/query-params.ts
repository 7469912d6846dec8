/**
 * The declared parameters of the data routes: zod schemas from a raw query or path value to what a
 * route reads, each refusing with the contract's message for that parameter (Errors and Limits).
 * A route declares its parameters from these (see declared-route.ts); `parseDeclared` turns the first
 * refusal into the 400 `{"error": ...}` answer.
 */

import { z } from 'zod';
import { ApiError, badRequest } from './errors.js';

/** Contract limit for `service`, `endpoint`, `q`, `metric` and a service name. */
export const MAX_TEXT_CHARS = 200;
const U64_MAX = 18_446_744_073_709_551_615n;
const TRACE_ID = /^[0-9a-fA-F]{32}$/;

/** Counted as code points, as a person counts them. */
const codePoints = (value: string): number => [...value].length;

/**
 * A query parameter given at most once (a repeated one is refused rather than guessed at); empty
 * text means absent, so the route default applies.
 */
export function param<T>(name: string, value: z.ZodType<T, string>) {
  return z
    .string({ error: `${name} must be given once` })
    .optional()
    .transform((text) => (text === '' ? undefined : text))
    .pipe(value.optional());
}

/** A check written as a parser that throws ApiError, as a schema: its message becomes the issue. */
export function parsedBy<T>(parse: (value: string) => T): z.ZodType<T, string> {
  return z.string().transform((value, context) => asIssue(context, () => parse(value)));
}

/** Runs `check` inside a zod transform, turning the ApiError it throws into the transform's issue. */
export function asIssue<T>(context: z.RefinementCtx, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
}

/** Text of at most 200 characters. */
export const text = (name: string) => z.string().refine((value) => codePoints(value) <= MAX_TEXT_CHARS, `${name} must be at most ${MAX_TEXT_CHARS} characters`);

/** An optional free-text filter of at most 200 characters. */
export const optionalText = (name: string) => param(name, text(name));

/** `kind` of the story routes: `error` or `slow`. */
export const storyKind = param('kind', z.enum(['error', 'slow'], { error: 'invalid kind (expected error or slow)' }));

/** A `0`|`1` switch; absent means the default. */
export const flag = (name: string, defaultValue: boolean) =>
  param(name, z.enum(['0', '1'], { error: `${name} must be 0 or 1` })).transform((value) => (value === undefined ? defaultValue : value === '1'));

/** An integer within [min, max]; absent means the default. */
export function boundedInt(name: string, min: number, max: number, defaultValue: number) {
  const message = `${name} must be within ${min}..${max}`;
  const value = z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
  return param(name, value).transform((n) => n ?? defaultValue);
}

/** Whole milliseconds (a duration bound). 12 digits: about 31 years, and ns products stay below 2^63. */
export const wholeMs = (name: string) =>
  param(
    name,
    z
      .string()
      .regex(/^\d{1,12}$/, `${name} must be a whole number of milliseconds`)
      .transform(Number),
  );

/** A fingerprint or template id: a decimal u64, in canonical form (no leading zeros). */
export function decimalU64(name: string) {
  const message = `${name} must be a decimal u64`;
  return (
    z
      .string()
      // Aborts: the range check parses the digits.
      .regex(/^\d{1,20}$/, { message, abort: true })
      .refine((value) => BigInt(value) <= U64_MAX, message)
      .transform((value) => BigInt(value).toString())
  );
}

/** A 32-hex trace or story id in a path, lowercased as stored. */
export const traceIdPath = z
  .string()
  .regex(TRACE_ID, 'id must be 32 hexadecimal characters')
  .transform((value) => value.toLowerCase());

type Merged<S extends readonly z.ZodType[]> = S extends readonly [infer First extends z.ZodType, ...infer Rest extends readonly z.ZodType[]]
  ? z.output<First> & Merged<Rest>
  : unknown;

/**
 * Groups of parameters checked one group after another over the same raw query, their outputs
 * merged: a later group is not looked at while an earlier one refuses. For checks that must come
 * first as a whole, such as the window (whose clock checks need both `since` and `until`).
 */
export function inOrder<S extends readonly z.ZodType[]>(...groups: S): z.ZodType<Merged<S>, unknown> {
  return z.unknown().transform((raw, context) => {
    const merged: Record<string, unknown> = {};
    for (const group of groups) {
      const result = group.safeParse(raw);
      if (!result.success) {
        for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        return z.NEVER;
      }
      Object.assign(merged, result.data);
    }
    return merged as Merged<S>;
  });
}

/**
 * Parses `value` with a declared schema; the first refusal, in declaration order, is the 400.
 * Declarations list parameters in the order the contract's checks run.
 */
export function parseDeclared<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? 'invalid request');
}
