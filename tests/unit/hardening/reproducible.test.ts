// Two clean builds of the same sources (fresh content and diagram caches each) produce byte-identical
// sites — search index included.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeProject } from '../../helpers/project.ts';

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = join(d, e.name);
      if (e.isDirectory()) walk(f);
      else out[f.slice(dir.length + 1)] = createHash('sha256').update(readFileSync(f)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

it('two clean builds produce byte-identical dist/', () => {
  const project = makeProject({}, { book: true, scenarios: 'all' });
  for (const n of [1, 2]) {
    const r = project.podlife(['build', '--out', `out${n}`, '--force'], {
      PODLIFE_DIAGRAM_CACHE: join(project.dir, `diagrams${n}`),
      PODLIFE_ASTRO_CACHE: join(project.dir, `astro${n}`),
    });
    expect(r.code, r.output).toBe(0);
  }
  const a = hashes(join(project.dir, 'out1'));
  const b = hashes(join(project.dir, 'out2'));
  expect(Object.keys(a).length).toBeGreaterThan(50);
  expect(Object.keys(a).some((f) => f.startsWith('pagefind/'))).toBe(true);
  expect(b).toEqual(a);
}, 900_000);
