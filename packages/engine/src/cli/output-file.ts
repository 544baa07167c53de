import { writeFileSync } from 'node:fs';

/**
 * Writes a report the command line was asked for; a file that cannot be written is said on stderr
 * rather than thrown, so the run's own outcome still decides the exit code. Answers whether it was
 * written.
 */
export function writeOutputFile(file: string, content: string): boolean {
  try {
    writeFileSync(file, content);
    return true;
  } catch (e) {
    process.stderr.write(`aqa: cannot write ${file}: ${(e as Error).message}\n`);
    return false;
  }
}
