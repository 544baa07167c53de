/** Entry of the `aqa` bundle (dist/aqa.mjs); the command line itself is cli.ts. */
import { EXIT_CANNOT_RUN, main } from './cli';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`aqa: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(EXIT_CANNOT_RUN);
  },
);
