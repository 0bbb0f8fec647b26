// Errors the CLI reports to people: a message that names the file and line and says what to do.
// Never a bare stack trace (set PODLIFE_DEBUG=1 to see one).

export class UsageError extends Error {}

/** An error tied to a place in a file the user wrote. */
export interface Located {
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

export function formatError(err: unknown): string {
  if (process.env.PODLIFE_DEBUG && err instanceof Error && err.stack) return err.stack;
  if (err instanceof Error) {
    const loc = err as Error & Located;
    const where = loc.file ? `${loc.file}${loc.line ? `:${loc.line}${loc.column ? `:${loc.column}` : ''}` : ''}: ` : '';
    const hint = loc.hint ? `\n  hint: ${loc.hint}` : '';
    return `podlife: ${where}${err.message}${hint}`;
  }
  return `podlife: ${String(err)}`;
}
