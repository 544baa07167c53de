/**
 * `npm run add-account -- --email ada@example.com --name "Ada Lovelace" [--company …] [--role …]`:
 * the operator creates an account, for a server whose sign-up is off (SIGN_UP, docs/design.md §11;
 * docs/adr/0018-safe-defaults-and-lockout.md). The password is read from standard input (its first
 * line) or, at a terminal, asked for twice without echo — never from the command line, where other
 * users of the machine and the shell history would see it. The account is checked by the
 * registration rules and created by the server's own AccountService, in the database the server's
 * settings name (DATA_DIR, DATABASE_URL); the server may be running meanwhile (SQLite in WAL mode, or
 * PostgreSQL).
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { describeIssues, RegistrationSchema } from '@aqa/plan';
import { systemClock } from '../apps/server/src/clock';
import { ConfigError, parseConfig } from '../apps/server/src/config';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';
import { AppError } from '../apps/server/src/errors';
import { createAccountServices } from '../apps/server/src/services/account-services';

const USAGE = `Usage: npm run add-account -- --email <email> --name "<first> <last>" [--company <company>] [--role <role>]
       (or --first-name <first> --last-name <last> instead of --name)
The password is read from standard input, or asked for at a terminal.`;

export class UsageError extends Error {}

interface AccountArgs {
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  role: string;
}

function readOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        company: { type: 'string' },
        role: { type: 'string' },
      },
    }).values;
  } catch (error) {
    // parseArgs says what is wrong ("Unknown option '--x'"); the usage follows.
    throw new UsageError((error as Error).message);
  }
}

export function parseAccountArgs(argv: string[]): AccountArgs {
  if (argv.some((arg) => /^--?(?:password|pass|pw)\b/i.test(arg))) {
    throw new UsageError(
      'the password is never taken from the command line: pipe it to standard input or type it when asked',
    );
  }
  const values = readOptions(argv);
  if (values.email === undefined) throw new UsageError('--email is required');
  const [first = '', ...rest] = (values.name ?? '').trim().split(/\s+/);
  const firstName = values['first-name'] ?? first;
  const lastName = values['last-name'] ?? rest.join(' ');
  if (firstName === '' || lastName === '') {
    throw new UsageError(
      'give a first and a last name: --name "Ada Lovelace", or --first-name and --last-name',
    );
  }
  return { email: values.email, firstName, lastName, company: values.company ?? '', role: values.role ?? '' };
}

/** The first line of standard input when it is not a terminal; otherwise asked for twice, without echo. */
async function readPassword(): Promise<{ password: string; confirmPassword: string }> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const password = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
    return { password, confirmPassword: password };
  }
  const password = await askHidden('Password: ');
  const confirmPassword = await askHidden('Password again: ');
  return { password, confirmPassword };
}

function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stdout.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(text);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new UsageError('cancelled'));
          return;
        }
        text = char === '\u007f' || char === '\b' ? text.slice(0, -1) : text + char;
      }
    };
    stdin.on('data', onData);
  });
}

async function main(): Promise<void> {
  const args = parseAccountArgs(process.argv.slice(2));
  const registration = RegistrationSchema.safeParse({ ...args, ...(await readPassword()) });
  if (!registration.success) {
    const problems = describeIssues(registration.error).map((p) => `  - ${p.field}: ${p.message}`);
    throw new UsageError(`the account was not created:\n${problems.join('\n')}`);
  }
  const config = parseConfig(process.env);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const { accounts } = createAccountServices(db, config, systemClock);
    const user = await accounts.createAccount(registration.data);
    process.stdout.write(`Account created: ${user.email} (${user.firstName} ${user.lastName})\n`);
  } finally {
    // Not closeDatabase(): on SQLite its WAL checkpoint would wait on a running server's readers.
    await db.destroy();
  }
}

// Run as a command, not when a test imports parseAccountArgs.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch(report);
}

function report(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`add-account: ${error.message}\n${USAGE}\n`);
  } else if (error instanceof ConfigError || error instanceof AppError) {
    process.stderr.write(`add-account: ${error.message}\n`);
  } else {
    process.stderr.write(
      `add-account: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exitCode = 1;
}
