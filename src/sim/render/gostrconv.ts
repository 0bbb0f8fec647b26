// Go's strconv quoting, for the printers that show Go strings: klog's message (journal.ts), text/template's %q and
// error contexts (gotemplate.ts), and the quoted strings of a JSONPath or a template (strconv.Unquote's escapes).
// upstream: go/src/strconv/quote.go (appendEscapedRune, UnquoteChar)

/**
 * strconv.Quote for the strings the model prints: named escapes, other control characters and DEL as \xNN, and a
 * rune beyond ASCII that is not printable (strconv.IsPrint: no letter, mark, number, punctuation or symbol) as \uNNNN
 * or \UNNNNNNNN.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (cp < 0x20 || cp === 0x7f) out += NAMED[c] ?? `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0x80 && !PRINTABLE.test(c)) out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const NAMED: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/**
 * The text between a Go string literal's quotes with its escapes (\n, \xNN, \uNNNN, \UNNNNNNNN, \NNN octal) read, or
 * undefined where one is invalid syntax.
 */
export function goUnescape(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e !== undefined && SIMPLE[e] !== undefined) out += SIMPLE[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) return undefined;
      out += String.fromCodePoint(cp);
      i += len;
    } else if (e !== undefined && e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) return undefined;
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else return undefined;
  }
  return out;
}
