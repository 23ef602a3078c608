// Null sentinels per type, following QuestDB, in storage form and in vector (query-time) form.

/** INT null in storage and in vectors. */
export const INT_NULL = -2147483648;
/** LONG/DATE/TIMESTAMP null in storage (Long.MIN_VALUE). In vectors these types use NaN. */
export const LONG_NULL_BIG = -9223372036854775808n;
/** SYMBOL key that means null. */
export const SYMBOL_NULL_KEY = -1;
/** IPV4 null (0.0.0.0). */
export const IPV4_NULL = 0;
/** CHAR null (the 0 code unit). */
export const CHAR_NULL = 0;
/** Length written for a null variable-size value. */
export const VAR_NULL_LENGTH = -1;
/** Largest magnitude a 64-bit integer can have and still be exact as a JS number. */
export const SAFE_INT64_MAGNITUDE = 2 ** 53;
