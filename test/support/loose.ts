// The one escape hatch of the tests' types: a JSON answer (or a parsed OpenAPI document) read loosely in assertions,
// where a wrong path fails the assertion itself. Everything else in test/ is typed; the lint refuses `any` elsewhere.

/** A JSON value read in an assertion: any property path, checked by the expectation that reads it. */
// biome-ignore lint/suspicious/noExplicitAny: the declared exception, named so each use says what it is
export type Loose = any
