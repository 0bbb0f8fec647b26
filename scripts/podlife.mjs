#!/usr/bin/env node
// The `podlife` command. Runs on the project's Node 22 (npm puts node_modules/.bin first on PATH),
// which strips TypeScript types natively, so the CLI is written in TypeScript without a build step.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `podlife needs Node.js >= 22.12 (this is ${process.version}).\n` +
      'Run it through npm so the project\'s own Node 22 is used: `npx podlife ...` or `npm run ...`.',
  );
  process.exit(1);
}
await import('./cli.ts');
