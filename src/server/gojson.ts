// Parse a request body as the API server's JSON decoder does, failing with Go's encoding/json messages
// ("invalid character 'x' looking for beginning of value", "unexpected end of JSON input"), which
// kubectl prints verbatim inside "Error from server (BadRequest): ...".
// upstream: go/src/encoding/json/scanner.go (the scanner's error texts), decode.go (checkValid)

export class GoJsonError extends Error {}

/** encoding/json quoteChar: how the scanner names the offending character. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** A scanner over the text that throws the first error the Go scanner would report. */
class Scanner {
  readonly #s: string;
  #i = 0;
  constructor(s: string) {
    this.#s = s;
  }

  #peek(): string | undefined {
    return this.#s[this.#i];
  }

  #fail(c: string | undefined, context: string): never {
    if (c === undefined) throw new GoJsonError('unexpected end of JSON input');
    throw new GoJsonError(`invalid character ${quoteChar(c)} ${context}`);
  }

  #skip(): void {
    while (this.#i < this.#s.length && isSpace(this.#s[this.#i])) this.#i++;
  }

  document(): void {
    this.#skip();
    this.#value();
    this.#skip();
    if (this.#i < this.#s.length) this.#fail(this.#peek(), 'after top-level value');
  }

  #value(): void {
    const c = this.#peek();
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    if (c === '"') return this.#string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number();
    if (c === 't') return this.#literal('true');
    if (c === 'f') return this.#literal('false');
    if (c === 'n') return this.#literal('null');
    this.#fail(c, 'looking for beginning of value');
  }

  #object(): void {
    this.#i++;
    this.#skip();
    if (this.#peek() === '}') {
      this.#i++;
      return;
    }
    for (;;) {
      this.#skip();
      if (this.#peek() !== '"') this.#fail(this.#peek(), 'looking for beginning of object key string');
      this.#string();
      this.#skip();
      if (this.#peek() !== ':') this.#fail(this.#peek(), 'after object key');
      this.#i++;
      this.#skip();
      this.#value();
      this.#skip();
      const c = this.#peek();
      if (c === ',') {
        this.#i++;
        continue;
      }
      if (c === '}') {
        this.#i++;
        return;
      }
      this.#fail(c, 'after object key:value pair');
    }
  }

  #array(): void {
    this.#i++;
    this.#skip();
    if (this.#peek() === ']') {
      this.#i++;
      return;
    }
    for (;;) {
      this.#skip();
      this.#value();
      this.#skip();
      const c = this.#peek();
      if (c === ',') {
        this.#i++;
        continue;
      }
      if (c === ']') {
        this.#i++;
        return;
      }
      this.#fail(c, 'after array element');
    }
  }

  #string(): void {
    this.#i++;
    for (;;) {
      const c = this.#peek();
      if (c === undefined) this.#fail(c, '');
      this.#i++;
      if (c === '"') return;
      if (c === '\\') {
        const e = this.#peek();
        if (e === undefined) this.#fail(e, '');
        this.#i++;
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            const h = this.#peek();
            if (h === undefined || !/[0-9a-fA-F]/.test(h)) this.#fail(h, 'in \\u hexadecimal character escape');
            this.#i++;
          }
        } else if (!'"\\/bfnrt'.includes(e)) this.#fail(e, 'in string escape code');
      } else if (c < ' ') this.#fail(c, 'in string literal');
    }
  }

  #number(): void {
    if (this.#peek() === '-') {
      this.#i++;
      const c = this.#peek();
      if (c === undefined || c < '0' || c > '9') this.#fail(c, 'in numeric literal');
    }
    const digits = (): void => {
      while (this.#peek() !== undefined && this.#peek()! >= '0' && this.#peek()! <= '9') this.#i++;
    };
    if (this.#peek() === '0') this.#i++;
    else digits();
    if (this.#peek() === '.') {
      this.#i++;
      const c = this.#peek();
      if (c === undefined || c < '0' || c > '9') this.#fail(c, 'after decimal point in numeric literal');
      digits();
    }
    if (this.#peek() === 'e' || this.#peek() === 'E') {
      this.#i++;
      if (this.#peek() === '+' || this.#peek() === '-') this.#i++;
      const c = this.#peek();
      if (c === undefined || c < '0' || c > '9') this.#fail(c, 'in exponent of numeric literal');
      digits();
    }
  }

  #literal(word: string): void {
    for (let k = 0; k < word.length; k++) {
      const c = this.#peek();
      if (c !== word[k]) this.#fail(c, `in literal ${word} (expecting ${quoteChar(word[k])})`);
      this.#i++;
    }
  }
}

/** JSON.parse with Go's error messages. An empty body is Go's "unexpected end of JSON input". */
export function parseGoJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    new Scanner(text).document();
    // JSON.parse and the scanner disagree only on inputs Go accepts and V8 rejects (none known).
    throw new GoJsonError('invalid JSON');
  }
}
