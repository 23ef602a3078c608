// Fixed bounds of the CSV import, with units last (STYLE rule 3). They live here rather than in core/limits.ts
// because only the import pipeline uses them; the values follow QuestDB's http.text.* defaults where one exists.

/** Longest record (line, quotes included) the lexer accepts; longer ones are rejected (QuestDB http.text.roll.buffer.limit). */
export const importLineBytesMax = 4 * 1024 * 1024;
/** Most columns a file may have; the first record decides the width. */
export const importColumnsMax = 2048;
/** Default number of lines analysed for delimiter, header and type detection (http.text.analysis.max.lines). */
export const importAnalysisLinesDefault = 1000;
/** Bytes buffered before detection runs even if fewer than analysisMaxLines lines arrived. */
export const importAnalysisBytesMax = 32 * 1024 * 1024;
/** Bytes of vector storage one emitted batch may take; wide files get fewer than batchRowsMax rows per batch. */
export const importBatchBytesMax = 16 * 1024 * 1024;
/** Field slots (rows × columns) one lexer block holds; bounds the offset arrays for wide files. */
export const importBlockFieldSlotsMax = 1 << 20;
/** A delimiter whose per-line count has a larger standard deviation is not accepted (http.text.max.required.delimiter.stddev). */
export const importDelimiterStdDevMax = 0.1222;
/** Without a delimiter, lines whose length deviates less than this are read as one column (http.text.max.required.line.length.stddev). */
export const importLineLengthStdDevMax = 0.8;
/** Fraction of analysed lines that must share the modal delimiter count when the strict deviation test fails. */
export const importDelimiterModeShareMin = 0.8;
/** Share of control bytes (other than TAB, LF, CR, FF) in the analysed sample above which the upload is judged binary. */
export const importControlByteShareMax = 0.01;
/** Bytes of an upload one parse thread converts at a time (cut at a line end); big enough to amortise the hand-off. */
export const importPieceBytes = 4 * 1024 * 1024;
/** Pieces of one upload handed to each parse thread and not yet written to staging; bounds the memory of parallel parsing. */
export const importPiecesInFlightPerThread = 2;
