// `npm run typecheck`: tsc --noEmit for the root and for every workspace that has a tsconfig.json.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './lib/workspace.mjs';

const projects = ['.'];
for (const group of ['packages', 'apps']) {
  if (!existsSync(join(ROOT, group))) continue;
  for (const name of readdirSync(join(ROOT, group)).sort()) {
    if (existsSync(join(ROOT, group, name, 'tsconfig.json'))) projects.push(`${group}/${name}`);
  }
}
let failed = 0;
for (const project of projects) {
  process.stdout.write(`typecheck ${project}\n`);
  if (
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit']) !== 0
  ) {
    failed += 1;
  }
}
process.exit(failed ? 1 : 0);
