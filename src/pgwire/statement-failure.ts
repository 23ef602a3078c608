// A statement's error together with the text it was raised against and where that text starts in what the
// client sent, so the ErrorResponse can carry PostgreSQL's 1-based position (`P`) in the client's own text.
export class StatementFailure {
  constructor(readonly error: unknown, readonly queryText: string, readonly offset: number) {}
}
