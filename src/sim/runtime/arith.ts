// The shell's arithmetic expansion, $((expression)), as busybox ash evaluates it (shell/math.c): integers, C's
// operators and precedence (`,` `=` `op=` `?:` `||` `&&` `|` `^` `&` `==` `!=` `<` `<=` `>` `>=` `<<` `>>` `+` `-` `*`
// `/` `%` `**`, unary `+` `-` `!` `~`, `++` and `--` before and after a name), variables by name or as `$name`: an
// unset one is 0, and a value is itself evaluated (`a=b; b=7; $((a))` is 7). Loaded with the containers' environment
// (kubelet/envvars.ts): a script's `$((` is a `$` the page's replay sees.
// upstream: busybox shell/math.c arith, arith_apply, arith_lookup_val

/** The variables an expression reads and assigns: the shell's (its special parameters included). */
export interface ArithVars {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

class ArithError extends Error {}

const OPERATORS = ['<<=', '>>=', '**', '<<', '>>', '||', '&&', '!=', '<=', '>=', '==', '|=', '&=', '*=', '/=', '%=', '+=', '-=', '^=', '++', '--'];
const ASSIGNING: Record<string, (a: number, b: number) => number> = {
  '=': (_, b) => b, '+=': (a, b) => a + b, '-=': (a, b) => a - b, '*=': (a, b) => a * b, '/=': (a, b) => div(a, b), '%=': (a, b) => rem(a, b),
  '<<=': (a, b) => a * 2 ** b, '>>=': (a, b) => Math.floor(a / 2 ** b), '&=': (a, b) => Number(BigInt(a) & BigInt(b)), '|=': (a, b) => Number(BigInt(a) | BigInt(b)), '^=': (a, b) => Number(BigInt(a) ^ BigInt(b)),
};
/** Binary operators by precedence, lowest first (math.c's tok_decl levels 5 to 15). */
const LEVELS: Record<string, (a: number, b: number) => number>[] = [
  { '||': (a, b) => +(a !== 0 || b !== 0) },
  { '&&': (a, b) => +(a !== 0 && b !== 0) },
  { '|': (a, b) => Number(BigInt(a) | BigInt(b)) },
  { '^': (a, b) => Number(BigInt(a) ^ BigInt(b)) },
  { '&': (a, b) => Number(BigInt(a) & BigInt(b)) },
  { '==': (a, b) => +(a === b), '!=': (a, b) => +(a !== b) },
  { '<': (a, b) => +(a < b), '<=': (a, b) => +(a <= b), '>': (a, b) => +(a > b), '>=': (a, b) => +(a >= b) },
  { '<<': (a, b) => a * 2 ** b, '>>': (a, b) => Math.floor(a / 2 ** b) },
  { '+': (a, b) => a + b, '-': (a, b) => a - b },
  { '*': (a, b) => a * b, '/': (a, b) => div(a, b), '%': (a, b) => rem(a, b) },
];

function div(a: number, b: number): number {
  if (b === 0) throw new ArithError('divide by zero');
  return Math.trunc(a / b);
}
function rem(a: number, b: number): number {
  if (b === 0) throw new ArithError('divide by zero');
  return a % b;
}

type Token = { num: number } | { name: string } | { op: string };

function tokenize(expr: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < expr.length; ) {
    const rest = expr.slice(i);
    let m: RegExpExecArray | null;
    if (/^\s/.test(rest)) i++;
    else if ((m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(?![\w])/.exec(rest))) {
      out.push({ num: Number(m[1].startsWith('0x') || m[1].startsWith('0X') ? m[1] : m[1].length > 1 && m[1][0] === '0' ? `0o${m[1].slice(1)}` : m[1]) });
      i += m[0].length;
    } else if ((m = /^\$?\{?([A-Za-z_]\w*|[?#$!0-9])\}?/.exec(rest)) && (m[0][0] === '$' || /^[A-Za-z_]/.test(rest))) {
      if (m[0].startsWith('${') !== m[0].endsWith('}') || (m[0][1] === '{' && m[0][0] !== '$')) throw new ArithError('arithmetic syntax error');
      out.push({ name: m[1] });
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => rest.startsWith(o)) ?? (/^[-+*/%()<>=!~&|^?:,]/.test(rest) ? rest[0] : undefined);
      if (!op) throw new ArithError('arithmetic syntax error');
      out.push({ op });
      i += op.length;
    }
  }
  return out;
}

/** Evaluate an arithmetic expression; its value, or ash's error message. */
export function arith(expr: string, vars: ArithVars, seen: string[] = []): { value: number } | { error: string } {
  let toks: Token[];
  try {
    toks = tokenize(expr);
  } catch (e) {
    return { error: (e as Error).message };
  }
  let pos = 0;
  const peek = (): string | undefined => {
    const t = toks[pos];
    return t && 'op' in t ? t.op : undefined;
  };
  const expect = (op: string): void => {
    if (peek() !== op) throw new ArithError(op === ':' ? 'malformed ?: operator' : 'arithmetic syntax error');
    pos++;
  };
  const valueOf = (name: string): number => {
    const text = vars.get(name);
    if (text === undefined || text === '') return 0;
    if (seen.includes(name)) throw new ArithError('expression recursion loop detected');
    const r = arith(text, vars, [...seen, name]);
    if ('error' in r) throw new ArithError(r.error);
    return r.value;
  };
  const nameAt = (): string => {
    const t = toks[pos];
    if (!t || !('name' in t)) throw new ArithError('arithmetic syntax error');
    pos++;
    return t.name;
  };
  const store = (name: string, v: number): number => {
    vars.set(name, String(v));
    return v;
  };
  // comma: the last value
  const comma = (): number => {
    let v = assign();
    while (peek() === ',') {
      pos++;
      v = assign();
    }
    return v;
  };
  const assign = (): number => {
    const t = toks[pos];
    const next = toks[pos + 1];
    if (t && 'name' in t && next && 'op' in next && ASSIGNING[next.op]) {
      pos += 2;
      const rhs = assign();
      return store(t.name, ASSIGNING[next.op](next.op === '=' ? 0 : valueOf(t.name), rhs));
    }
    return conditional();
  };
  const conditional = (): number => {
    const c = binary(0);
    if (peek() !== '?') return c;
    pos++;
    const a = comma();
    expect(':');
    const b = conditional();
    return c !== 0 ? a : b;
  };
  const binary = (level: number): number => {
    if (level === LEVELS.length) return power();
    let v = binary(level + 1);
    for (let op = peek(); op !== undefined && LEVELS[level][op]; op = peek()) {
      pos++;
      v = LEVELS[level][op](v, binary(level + 1));
    }
    return v;
  };
  // ** is right-associative and binds tighter than * (math.c's level 15)
  const power = (): number => {
    const base = unary();
    if (peek() !== '**') return base;
    pos++;
    const exp = power();
    if (exp < 0) throw new ArithError('exponent less than 0');
    return base ** exp;
  };
  const unary = (): number => {
    const op = peek();
    if (op === '-' || op === '+' || op === '!' || op === '~') {
      pos++;
      const v = unary();
      return op === '-' ? -v : op === '+' ? v : op === '!' ? +(v === 0) : Number(~BigInt(v));
    }
    if (op === '++' || op === '--') {
      pos++;
      const name = nameAt();
      return store(name, valueOf(name) + (op === '++' ? 1 : -1));
    }
    return postfix();
  };
  const postfix = (): number => {
    const t = toks[pos];
    if (!t) throw new ArithError('arithmetic syntax error');
    if ('op' in t) {
      if (t.op !== '(') throw new ArithError('arithmetic syntax error');
      pos++;
      const v = comma();
      expect(')');
      return v;
    }
    pos++;
    if ('num' in t) return t.num;
    const op = peek();
    if (op === '++' || op === '--') {
      pos++;
      const v = valueOf(t.name);
      store(t.name, v + (op === '++' ? 1 : -1));
      return v;
    }
    return valueOf(t.name);
  };
  try {
    // an empty expression is 0
    if (toks.length === 0) return { value: 0 };
    const value = comma();
    if (pos < toks.length) throw new ArithError('arithmetic syntax error');
    return { value };
  } catch (e) {
    if (e instanceof ArithError) return { error: e.message };
    throw e;
  }
}
