// What the model keeps for the whole run, made once and flat. A template literal of several parts is a tree of
// concatenation nodes that every garbage collection walks and copies (kept joins it into one string), and a value
// every pod derives from the same key would otherwise be kept once per pod (derived makes it once per key).

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

/**
 * A value derived from one key (a container name, an image, a duration), made once per key: the same few keys recur
 * in every pod, and each trace event, API event and log line would otherwise keep a copy of its own. A pure memo,
 * bounded so that a long run with many distinct keys does not grow it without end.
 */
export function derived<K, V>(cache: Map<K, V>, key: K, make: (key: K) => V): V {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= 1000) cache.clear();
    v = make(key);
    cache.set(key, v);
  }
  return v;
}
