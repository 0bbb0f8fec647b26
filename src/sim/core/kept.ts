// Strings the model keeps for the whole run (trace details, event names and messages, log paths) are built flat.
// A template literal of several parts is a tree of concatenation nodes that every garbage collection walks and
// copies; a joined array is one string.

/** A template tag: the same text as the template literal, as one flat string. */
export function kept(parts: TemplateStringsArray, ...values: unknown[]): string {
  const out: string[] = new Array(2 * values.length + 1);
  out[0] = parts[0];
  for (let i = 0; i < values.length; i++) {
    out[2 * i + 1] = String(values[i]);
    out[2 * i + 2] = parts[i + 1];
  }
  return out.join('');
}
