// A command-line flag parser with pflag's rules and error messages (kubectl, crictl and journalctl
// all reject what pflag rejects, in these words):
// --name=value, --name value, --bool, --bool=false, -abc (bool shorthands), -ovalue, -o value,
// -n=value, `--` ends the flags, flags and positional arguments may interleave.
// upstream: github.com/spf13/pflag flag.go (parseLongArg, parseSingleShortArg, failf messages)

import { parseGoDuration } from '../render/duration.ts';

export type FlagType = 'bool' | 'string' | 'int' | 'stringArray' | 'stringSlice' | 'duration';

export interface FlagSpec {
  name: string;
  shorthand?: string;
  type: FlagType;
  /** For string flags that may be given without a value (`--cascade`), the implied value. */
  noOptDefault?: string;
}

export type FlagValue = boolean | string | number | string[];

export interface ParsedArgs {
  flags: Map<string, FlagValue>;
  /** Positional arguments (before and after `--`). */
  args: string[];
  /** Index in `args` where the arguments after `--` start, or -1 (cobra's ArgsLenAtDash). */
  argsLenAtDash: number;
}

export class FlagError extends Error {}

function setValue(spec: FlagSpec, value: string, flags: Map<string, FlagValue>, display: string): void {
  const invalid = (err: string) =>
    new FlagError(`invalid argument ${JSON.stringify(value)} for ${JSON.stringify(display)} flag: ${err}`);
  switch (spec.type) {
    case 'bool': {
      const v = parseGoBool(value);
      if (v === undefined) throw invalid(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
      flags.set(spec.name, v);
      return;
    }
    case 'int': {
      if (!/^[+-]?\d+$/.test(value)) throw invalid(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
      flags.set(spec.name, Number(value));
      return;
    }
    case 'duration': {
      // pflag's DurationVar: time.ParseDuration, kept in milliseconds (read with `duration`)
      const d = parseGoDuration(value);
      if (!d.ok) throw invalid(d.error);
      flags.set(spec.name, d.ms);
      return;
    }
    case 'stringArray': {
      const prev = flags.get(spec.name);
      flags.set(spec.name, [...(Array.isArray(prev) ? prev : []), value]);
      return;
    }
    case 'stringSlice': {
      // each occurrence a comma-separated list, read as one CSV record (pflag's readAsCSV)
      const prev = flags.get(spec.name);
      const csv = readAsCsv(value);
      if (typeof csv === 'string') throw invalid(csv);
      flags.set(spec.name, [...(Array.isArray(prev) ? prev : []), ...csv]);
      return;
    }
    default:
      flags.set(spec.name, value);
  }
}

/**
 * pflag's readAsCSV: the value as the first record of encoding/csv (fields split on commas, a field in double
 * quotes may hold commas and "" for a quote; the empty value is no field), or csv's ParseError text.
 * upstream: github.com/spf13/pflag string_slice.go readAsCSV; go/src/encoding/csv/reader.go readRecord
 */
export function readAsCsv(value: string): string[] | string {
  if (value === '') return [];
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  // the first record only: a line break ends it
  const line = value.split('\n')[0].replace(/\r$/, '');
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] !== '"') {
      const end = line.indexOf(',', i);
      const field = end < 0 ? line.slice(i) : line.slice(i, end);
      const quote = field.indexOf('"');
      if (quote >= 0) return `parse error on line 1, column ${bytes(line.slice(0, i + quote)) + 1}: bare " in non-quoted-field`;
      fields.push(field);
      if (end < 0) return fields;
      i = end + 1;
      continue;
    }
    let field = '';
    let j = i + 1;
    for (;;) {
      const q = line.indexOf('"', j);
      if (q < 0) return `parse error on line 1, column ${bytes(line) + 1}: extraneous or missing " in quoted-field`;
      field += line.slice(j, q);
      if (line[q + 1] === '"') {
        field += '"';
        j = q + 2;
        continue;
      }
      if (q + 1 < line.length && line[q + 1] !== ',') return `parse error on line 1, column ${bytes(line.slice(0, q)) + 1}: extraneous or missing " in quoted-field`;
      j = q + 1;
      break;
    }
    fields.push(field);
    if (j >= line.length) return fields;
    i = j + 1;
  }
}

/** strconv.ParseBool */
export function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

export function parseFlags(argv: string[], specs: FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.shorthand).map((s) => [s.shorthand!, s]));
  const flags = new Map<string, FlagValue>();
  const args: string[] = [];
  let argsLenAtDash = -1;
  const display = (s: FlagSpec) => (s.shorthand ? `-${s.shorthand}, --${s.name}` : `--${s.name}`);

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      argsLenAtDash = args.length;
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const spec = byName.get(name);
      if (!spec) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) setValue(spec, a.slice(eq + 1), flags, display(spec));
      else if (spec.type === 'bool') flags.set(spec.name, true);
      else if (spec.noOptDefault !== undefined) flags.set(spec.name, spec.noOptDefault);
      else if (i + 1 < argv.length) setValue(spec, argv[++i], flags, display(spec));
      else throw new FlagError(`flag needs an argument: --${name}`);
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !a.startsWith('--')) {
      let shorthands = a.slice(1);
      while (shorthands.length > 0) {
        const c = shorthands[0];
        const spec = byShort.get(c);
        if (!spec) throw new FlagError(`unknown shorthand flag: '${c}' in -${shorthands}`);
        if (shorthands.length > 2 && shorthands[1] === '=') {
          setValue(spec, shorthands.slice(2), flags, display(spec));
          shorthands = '';
        } else if (spec.type === 'bool') {
          flags.set(spec.name, true);
          shorthands = shorthands.slice(1);
        } else if (shorthands.length > 1) {
          setValue(spec, shorthands.slice(1), flags, display(spec));
          shorthands = '';
        } else if (spec.noOptDefault !== undefined) {
          flags.set(spec.name, spec.noOptDefault);
          shorthands = '';
        } else if (i + 1 < argv.length) {
          setValue(spec, argv[++i], flags, display(spec));
          shorthands = '';
        } else {
          throw new FlagError(`flag needs an argument: '${c}' in -${c}`);
        }
      }
      continue;
    }
    args.push(a);
  }
  return { flags, args, argsLenAtDash };
}

export const str = (p: ParsedArgs, name: string, dflt = ''): string => {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : dflt;
};
export const bool = (p: ParsedArgs, name: string, dflt = false): boolean => {
  const v = p.flags.get(name);
  return typeof v === 'boolean' ? v : dflt;
};
/** A duration flag's value in milliseconds. */
export const duration = (p: ParsedArgs, name: string, dflt: number): number => {
  const v = p.flags.get(name);
  return typeof v === 'number' ? v : dflt;
};
export const int = (p: ParsedArgs, name: string, dflt: number): number => {
  const v = p.flags.get(name);
  return typeof v === 'number' ? v : dflt;
};
export const arr = (p: ParsedArgs, name: string): string[] => {
  const v = p.flags.get(name);
  return Array.isArray(v) ? v : [];
};
