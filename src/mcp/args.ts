/** Argument schemas shared by the tools: precise JSON schemas for clients, checked before any read. */

import { z } from 'zod';

export const sinceArg = (defaultSince: string) =>
  z
    .string()
    .regex(/^[0-9]+[smhd]$/, { error: 'since must be <n>s, <n>m, <n>h or <n>d' })
    .optional()
    .describe(`Window length, ending at until: <n>s, <n>m, <n>h or <n>d, from 1s to 7d. Default ${defaultSince}.`);

export const untilArg = z
  .union([z.string().min(1), z.number().int()], { error: 'until must be an RFC 3339 time or Unix seconds' })
  .optional()
  .describe(
    'Window end: RFC 3339 time (e.g. 2026-11-25T08:00:00Z) or Unix seconds; at most 60 s in the future; the window must start within the last 7 days. Default now.',
  );

export const windowArgs = (defaultSince: string) => ({ since: sinceArg(defaultSince), until: untilArg });

export const serviceArg = (meaning: string) => z.string().min(1).max(200, { error: 'service must be at most 200 characters' }).optional().describe(meaning);

export const storyKindArg = z
  .enum(['error', 'slow'], { error: 'kind must be error or slow' })
  .optional()
  .describe('Only stories of this kind: error (a span failed) or slow (slower than the endpoint baseline).');

/** A string argument whose absence or wrong type is reported by name. */
export const requiredString = (name: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) });

export const traceIdArg = (what: string) => requiredString(what).regex(/^[0-9a-fA-F]{32}$/, { error: `${what} must be 32 hexadecimal characters` });

export const decimalIdArg = (name: string) => requiredString(name).regex(/^[0-9]{1,20}$/, { error: `${name} must be an unsigned 64-bit integer in decimal` });

/** A `limit` argument with its own range; tools default low so answers stay small. */
export const limitArg = (max: number, defaultLimit: number, what: string) =>
  z
    .number()
    .int({ error: 'limit must be an integer' })
    .min(1, { error: `limit must be within 1..${max}` })
    .max(max, { error: `limit must be within 1..${max}` })
    .optional()
    .describe(`At most this many ${what} (1 to ${max}, default ${defaultLimit}).`);

/** Unknown argument names are refused (a misspelt filter must not silently widen the answer). */
export const strictArgs = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
