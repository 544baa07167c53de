// `npm run build`: install if needed and rebuild the web app and the server.
import { checkNodeVersion, ensureBuilt, ensureInstalled } from './lib/workspace.mjs';

checkNodeVersion();
ensureInstalled();
ensureBuilt({ force: process.argv.includes('--force') });
