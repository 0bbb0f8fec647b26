// Problems in what a contributor wrote: what is wrong, where, and how to fix it. The parser knows only
// the excerpt (line/column inside the code); whoever knows the chapter file adds the file and shifts
// the place to the Markdown line (see `locate`).

export interface Place {
  /** 0-based excerpt line (for ExcerptError) or 1-based file line (for SourceProblem). */
  line: number;
  /** 1-based column, when it helps. */
  column?: number;
}

/** A problem inside one excerpt, placed on an excerpt line (0-based, after the `// Source:` line). */
export class ExcerptError extends Error {
  readonly hint: string;
  readonly at: Place;

  constructor(message: string, hint: string, at: Place) {
    super(message);
    this.name = 'ExcerptError';
    this.hint = hint;
    this.at = at;
  }
}

/** A problem placed in a file: the shape scripts/errors.ts prints (`file:line:col: message`, then the hint). */
export class SourceProblem extends Error {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint: string;

  constructor(message: string, hint: string, file: string, line?: number, column?: number) {
    super(message);
    this.name = 'SourceProblem';
    this.file = file;
    this.line = line;
    this.column = column;
    this.hint = hint;
  }

  /** One self-contained text: build tools sometimes show only an error's message. */
  describe(): string {
    const where = `${this.file}${this.line ? `:${this.line}${this.column ? `:${this.column}` : ''}` : ''}`;
    return `${where}: ${this.message}\n  fix: ${this.hint}`;
  }
}

/** Move an excerpt-relative error to its chapter: `firstCodeLine` is the file line of excerpt line 0. */
export function locate(err: ExcerptError, file: string, firstCodeLine: number, columnShift = 0): SourceProblem {
  const column = err.at.column === undefined ? undefined : err.at.column + columnShift;
  return new SourceProblem(err.message, err.hint, file, firstCodeLine + err.at.line, column);
}
