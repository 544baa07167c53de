// `npm start`: install what is missing, build what changed, then serve the app on http://localhost:5200.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, checkNodeVersion, ensureBuilt, ensureInstalled, log } from './lib/workspace.mjs';

checkNodeVersion();
ensureInstalled();
ensureBuilt();

log('Starting the server...');
const server = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.mjs')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 0 : 1));
});
