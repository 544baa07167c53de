import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { type Config, ConfigError, isLoopbackHost, parseConfig } from './config';
import { DatabaseConnectionError } from './db/database';
import { DEMO_ACCOUNT } from './services/demo-account.service';

/** The address people type: a wildcard bind is reachable as localhost. */
function publicUrl(config: Config, port: number): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // No logger exists yet; stderr is where a person starting the server will look.
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }

  const app = await buildApp(config);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    app.log.fatal(
      { err: error },
      inUse
        ? `Port ${config.port} is already in use. Stop the other server or set PORT.`
        : 'Could not start listening',
    );
    await app.close();
    process.exit(1);
  }
  const { port } = app.server.address() as AddressInfo;
  app.log.info(`AnybodyQA is running at ${publicUrl(config, port)}`);
  if (config.demoAccount) {
    app.log.info(`Demo account: ${DEMO_ACCOUNT.email} (its password is shown on the sign-in page)`);
  }
  if (!isLoopbackHost(config.host) || config.trustProxy) {
    // Reachable from other machines (directly or through a proxy): say what strangers can do there
    // (docs/design.md §11).
    app.log.info(
      `Reachable beyond this machine: the demo account is ${config.demoAccount ? 'ON' : 'off'}, ` +
        `sign-up is ${config.signUp ? 'OPEN' : 'closed'} (DEMO_ACCOUNT, SIGN_UP; see README "Deploying")`,
    );
  }

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second Ctrl+C while closing means "now".
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info({ signal }, 'Shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'Error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  // An unreachable database is the operator's to fix, said in one sentence (docs/operations.md "PostgreSQL").
  const words =
    error instanceof DatabaseConnectionError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`AnybodyQA could not start: ${words}\n`);
  process.exit(1);
});
