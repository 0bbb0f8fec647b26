// The real Go grammar: tree-sitter-go's wasm build, run by web-tree-sitter. Loaded once per process;
// every excerpt and every upstream file is parsed with the same parser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

/** Resolve a file inside an installed package, from the project root first (Vite may relocate this module). */
function resolvePackageFile(specifier: string): string {
  const bases = [path.join(process.cwd(), 'package.json'), import.meta.url];
  let lastError: unknown;
  for (const base of bases) {
    try {
      return createRequire(base).resolve(specifier);
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`podlife: cannot find ${specifier} (is it installed? run npm ci): ${String(lastError)}`);
}

async function createGoParser(): Promise<Parser> {
  const runtimeWasm = resolvePackageFile('web-tree-sitter/tree-sitter.wasm');
  await Parser.init({ locateFile: () => runtimeWasm });
  const go = await Language.load(new Uint8Array(readFileSync(resolvePackageFile('tree-sitter-go/tree-sitter-go.wasm'))));
  const parser = new Parser();
  parser.setLanguage(go);
  return parser;
}

/** The shared Go parser (tree-sitter-go 0.25 on web-tree-sitter 0.25). */
export function goParser(): Promise<Parser> {
  parserPromise ??= createGoParser();
  return parserPromise;
}

/** Parse Go source. Tree-sitter recovers from the invalid Go that elisions (`...`) produce. */
export async function parseGo(source: string): Promise<Tree> {
  const parser = await goParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('podlife: tree-sitter returned no tree for a Go source');
  return tree;
}
