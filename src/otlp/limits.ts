/**
 * Nesting bound for AnyValue arrays/kvlists and unknown groups. Without it a hostile message of
 * nested empty arrays (2 bytes per level) would overflow the stack in the recursive decoders.
 */
export const MAX_NESTING_DEPTH = 100;
