/**
 * Protobuf tags of common.proto's AnyValue, KeyValue, ArrayValue and KeyValueList, shared by the
 * decoder and the encoder so the two can never disagree. A tag is (field << 3) | wire type.
 */

// AnyValue: string_value = 1, bool_value = 2, int_value = 3, double_value = 4 (fixed64 wire),
// array_value = 5, kvlist_value = 6, bytes_value = 7.
export const TAG_STRING = 0x0a;
export const TAG_BOOL = 0x10;
export const TAG_INT = 0x18;
export const TAG_DOUBLE = 0x21;
export const TAG_ARRAY = 0x2a;
export const TAG_KVLIST = 0x32;
export const TAG_BYTES = 0x3a;
// KeyValue: key = 1, value = 2.
export const TAG_KEY = 0x0a;
export const TAG_VALUE = 0x12;
// ArrayValue and KeyValueList: values = 1.
export const TAG_VALUES = 0x0a;
