/**
 * Building blocks of the response declarations, and `Wire`, the type a browser sees after
 * JSON.parse. Type-only for the web app: this module imports nothing but zod.
 */

import { z } from 'zod';

/**
 * A `*_ns` value or another 64-bit count: the server holds it as a bigint (exact past 2^53) or a
 * number, and the reply writes either as a bare JSON integer.
 */
export const int64 = z.union([z.bigint(), z.number().int()]);

/** A count or size that always fits a double exactly. */
export const count = z.number().int().nonnegative();

/** `[bucket start, value]`: the series pair of the contract. */
export const pair = z.tuple([z.number(), z.number()]);

type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
/** An OTLP AnyValue as JSON (see model/signals.ts AttrValue). */
export const attrValue: z.ZodType<AttrValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(attrValue), z.record(z.string(), attrValue)]),
);
/** One attribute as the contract's `[key, value]` pair. */
export const attrPair = z.tuple([z.string(), attrValue]);

/**
 * What a declared server shape looks like once parsed by `JSON.parse` in a browser: every bigint
 * becomes a number (approximate past 2^53, which the app accepts: it only displays and positions them).
 */
export type Wire<T> = T extends Json ? T : T extends bigint ? number : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

/** Plain JSON (no bigint anywhere): its wire type is itself, which also ends the recursion for attribute values. */
type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/** The wire type of a declared response schema. */
export type WireOf<S extends z.ZodType> = Wire<z.output<S>>;
