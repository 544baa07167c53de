import { join } from 'node:path';
import { startFunctionalRun, TargetGuard } from '@aqa/engine';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import packageJson from '../package.json' with { type: 'json' };
import { registerAuthentication } from './auth/authenticate';
import { registerWorkspaceHook } from './auth/workspace-hook';
import { BearerThrottle } from './auth/bearer-throttle';
import { type Clock, systemClock } from './clock';
import { LiveRelay } from './cluster/live-relay';
import { connectRedis, type RedisConnections } from './cluster/redis';
import { redisLimitStore } from './cluster/redis-limits';
import { Replicas } from './cluster/replicas';
import { ServerInstances } from './cluster/server-instances';
import { DeadServerSweeper } from './cluster/sweeper';
import type { Config } from './config';
import { closeDatabase, migrateToLatest, openDatabase, pingDatabase } from './db/database';
import { type LogDestination, loggerOptions } from './logger';
import { registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerWebApp } from './plugins/web-app';
import {
  FunctionalPlanRepository,
  FunctionalRunRepository,
  FunctionalScreenshotRepository,
} from './repositories/functional.repository';
import { FeedbackRepository } from './repositories/feedback.repository';
import { MessageRepository } from './repositories/message.repository';
import { AssistantRepository } from './repositories/assistant.repository';
import { PlanRepository } from './repositories/plan.repository';
import { RunRepository } from './repositories/run.repository';
import { ServerInstanceRepository } from './repositories/server-instance.repository';
import { accountRoutes } from './routes/account.routes';
import { assistantRoutes } from './routes/assistant.routes';
import { downloadRoutes } from './routes/download.routes';
import { feedbackRoutes } from './routes/feedback.routes';
import { functionalRoutes } from './routes/functional.routes';
import { historyRoutes } from './routes/history.routes';
import { importRoutes } from './routes/import.routes';
import { messageRoutes } from './routes/message.routes';
import { planRoutes } from './routes/plan.routes';
import { runRoutes } from './routes/run.routes';
import { systemRoutes } from './routes/system.routes';
import { textCommandRoutes } from './routes/text-command.routes';
import { agentRoutes } from './routes/agent.routes';
import { tokenRoutes } from './routes/token.routes';
import { ssoRoutes } from './routes/sso.routes';
import { SsoService } from './services/sso/sso.service';
import { SsoLoginRepository } from './repositories/sso-login.repository';
import { scheduleRoutes } from './routes/schedule.routes';
import { workspaceRoutes } from './routes/workspace.routes';
import { WorkspaceRepository } from './repositories/workspace.repository';
import { WorkspaceService } from './services/workspaces/workspace.service';
import { auditRoutes } from './routes/audit.routes';
import { AuditService } from './services/audit/audit.service';
import { registerAuditHook } from './services/audit/audit-hook';
import { AuditRepository } from './repositories/audit.repository';
import { notificationRoutes } from './routes/notification.routes';
import { createNotificationServices } from './services/notifications/notification-services';
import { accountEmailProblems } from './services/account-email-check';
import { createAccountServices } from './services/account-services';
import { createAgentServices } from './services/agents/agent-services';
import { AssistantService } from './services/assistant/assistant.service';
import { OpenAiCompatibleModel } from './services/assistant/model-client';
import { CliDownloadService } from './services/cli-download.service';
import { DemoAccountService } from './services/demo-account.service';
import { FeedbackService } from './services/feedback.service';
import { FunctionalPlanService } from './services/functional/functional-plan.service';
import { functionalKinds } from './services/functional/functional-kinds';
import { FunctionalRunService } from './services/functional/functional-run.service';
import { openUiBrowsers } from './services/functional/ui-runs';
import { createHistoryServices } from './services/history/history-services';
import { DEFAULT_IMPORT_POOL_OPTIONS, type ImportPoolOptions } from './services/import/import-pool';
import { ImportService } from './services/import/import.service';
import { MessageService } from './services/message.service';
import { PlanService } from './services/plan.service';
import { BuiltinRunner } from './services/runs/builtin-runner';
import { RunLifecycle } from './services/lifecycle/run-lifecycle';
import { RunService } from './services/runs/run.service';
import { RunnerRegistry } from './services/runs/runner';
import { EXTERNAL_TOOLS, ToolDetector } from './services/runs/tool-detector';
import { ExternalToolRunner } from './services/runs/external-runner';
import { TextCommandService } from './services/text-command.service';
import { ScheduleService } from './services/schedules/schedule.service';
import {
  DEFAULT_SCHEDULER_OPTIONS,
  Scheduler,
  SCHEDULER_REASONS,
  type SchedulerOptions,
} from './services/schedules/scheduler';
import { ScheduleRepository } from './repositories/schedule.repository';
import { toAccountUser } from './services/account-user';
import {
  DEFAULT_VALIDATION_LIMITS,
  ValidateService,
  type ValidationLimits,
} from './services/validate/validate.service';

export const VERSION = packageJson.version;

export interface AppOptions {
  /** Replaces the system clock (sessions, rate limits); tests use it to move time. */
  now?: Clock;
  /** Receives the log lines instead of stdout; tests use it to prove no secret is logged. */
  logDestination?: LogDestination;
  /** Replaces the limits of Validate (the whole pass's time, the body read per answer); tests shorten them. */
  validationLimits?: Partial<ValidationLimits>;
  /** Replaces the import worker's limits (time per import, heap); tests shorten them. */
  importLimits?: Partial<ImportPoolOptions>;
  /** Replaces how often and how late schedules fire (docs/adr/0031-schedules.md); tests look more often. */
  scheduler?: Partial<SchedulerOptions>;
}

/**
 * Opens the database, applies migrations, syncs the demo account and wires every route.
 * Resolves to a ready instance (use `inject` in tests, `listen` in main.ts); closing it closes
 * the database.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const now = options.now ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logDestination),
    // The client IP keys the sign-in and sign-up rate limits.
    trustProxy: config.trustProxy,
    // One line per request at info would bury what matters; requests are logged at debug (below).
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', (request, reply, done) => {
    app.log.debug(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = openDatabase(config.database);
  app.addHook('onClose', () => closeDatabase(db));
  // Several servers share one database through one Redis (docs/adr/0020-server-replicas.md).
  let redis: RedisConnections | null = null;
  let instances: ServerInstances | undefined;

  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'Database migrated');
    if (config.redisUrl !== undefined) redis = await connectRedis(config.redisUrl, app.log);
    const relay = redis === null ? null : new LiveRelay(redis, app.log);
    const serverStore = new ServerInstanceRepository(db);
    instances = new ServerInstances(serverStore, app.log);
    await instances.register(relay);
    await relay?.start();
    const replicas = new Replicas(instances, relay, serverStore);

    // Several replicas count sign-ins and sign-ups once, in their Redis (docs/adr/0020-server-replicas.md).
    const limitStore = redis === null ? undefined : await redisLimitStore(redis.command, now);
    const { users, sessions, accounts, apiTokens } = createAccountServices(db, config, now, limitStore);
    const demo = new DemoAccountService(users, config.demoAccount, now);
    const plans = new PlanService(new PlanRepository(db), now);
    const workspaces = new WorkspaceService(new WorkspaceRepository(db), users, now, config.publicUrl);
    const tools = new ToolDetector(config.toolCommands, {
      logger: app.log,
      // Debian's JMeter launcher is compiled here once (see @aqa/engine's debian-jmeter.ts).
      cacheDir: join(config.dataDir, 'cache'),
      runsTools: config.externalTools,
    });
    // The port is read at each decision: it is known only once the server listens (PORT=0 in tests).
    const guard = new TargetGuard(config.targets, {
      ownPorts: () => {
        const address = app.server.address();
        if (typeof address === 'object' && address !== null) return [address.port];
        return config.port > 0 ? [config.port] : [];
      },
    });
    // Every ended run's message is written here (docs/reference/02-running.md §2 "Messages").
    const messages = new MessageService(new MessageRepository(db), now, app.log);
    const notifications = createNotificationServices(app, db, config, guard, now, messages);
    const runners = new RunnerRegistry(new BuiltinRunner(guard), tools);
    if (config.externalTools) {
      for (const tool of EXTERNAL_TOOLS)
        runners.register(new ExternalToolRunner(tool, tools.environment, tools.cacheDir));
    }
    // One place under the limits, one stop, shutdown and recovery for runs of every kind (docs/run-lifecycle.md).
    const lifecycle = new RunLifecycle(
      { perUser: config.maxRunsPerUser, perServer: config.maxRunsPerServer },
      replicas,
      app.log,
    );
    const runs = new RunService(
      new RunRepository(db),
      new PlanRepository(db),
      lifecycle,
      runners,
      tools,
      app.log,
      guard,
      notifications.notices,
      replicas,
    );
    // Runs on load agents when the server has Redis (docs/adr/0021-load-agents.md).
    const agents = await createAgentServices(config, runners, guard, app.log);
    // Agents' next-job calls wait up to 20 s: they answer at once when the server stops.
    app.addHook('preClose', (done) => {
      agents.endWaits();
      done();
    });
    app.addHook('onClose', () => agents.close());
    runs.useAgents(agents.placement);
    const functionalPlans = new FunctionalPlanService(new FunctionalPlanRepository(db), now);
    // One browser pool for the server's UI runs; closed after the runs have stopped (preClose below).
    const uiBrowsers = openUiBrowsers(config.uiBrowsers, process.env.PATH);
    app.addHook('onClose', () => uiBrowsers.close());
    const functionalRuns = new FunctionalRunService(
      new FunctionalRunRepository(db),
      functionalPlans,
      functionalKinds(
        // Each run's worker within FUNCTIONAL_RUN_MEMORY_MB (docs/adr/0024-memory-bounds.md).
        (plan, runOptions) =>
          startFunctionalRun(plan, { ...runOptions, maxMemoryMb: config.functionalRunMemoryMb }),
        uiBrowsers.support,
      ),
      new FunctionalScreenshotRepository(db),
      lifecycle,
      guard,
      now,
      app.log,
      notifications.notices,
    );
    // Saved plans run on their schedules, once across replicas (docs/adr/0031-schedules.md).
    const scheduleStore = new ScheduleRepository(db);
    const schedules = new ScheduleService(scheduleStore, now, (id) => workspaces.timezoneOf(id));
    const scheduler = new Scheduler(
      scheduleStore,
      now,
      async ({ userId, workspaceId, planKind, planId }) => {
        const author = await users.findById(userId);
        if (author === undefined) throw new Error(SCHEDULER_REASONS.ownerGone);
        // Started as its author, who must still be an editor of the schedule's workspace.
        const user = await workspaces.actIn(toAccountUser(author), workspaceId, 'editor');
        if (planKind === 'load') return (await runs.start(user, { plan_id: planId })).test_id;
        const saved = await functionalPlans.get(user, planId);
        return (await functionalRuns.start(user, { ...saved, plan_id: planId })).test_id;
      },
      app.log,
      { ...DEFAULT_SCHEDULER_OPTIONS, ...options.scheduler },
    );
    app.addHook('onReady', (done) => {
      scheduler.start();
      done();
    });
    // Before the runs stop (the lifecycle's preClose below): nothing is started once the server is closing.
    app.addHook('preClose', () => scheduler.stop());

    const interrupted = await lifecycle.recoverInterrupted();
    if (interrupted.load > 0) {
      app.log.warn(
        { runs: interrupted.load },
        'Runs left unfinished by the last process rebuilt from their stored seconds and marked interrupted',
      );
    }
    if (interrupted.functional > 0) {
      app.log.warn(
        { runs: interrupted.functional },
        'Functional runs left running by the last process rebuilt from their stored calls and marked interrupted',
      );
    } else {
      // Evidence an older version or a hand-edited store left linked to nothing (a recovery that ended
      // runs has looked for it already).
      await functionalRuns.collectOrphans();
    }
    // With other replicas alive, runs a dead one left are ended by whoever sweeps first.
    const sweeper =
      relay === null
        ? null
        : new DeadServerSweeper(
            { recovery: lifecycle, pruneDead: () => replicas.instances.pruneDead() },
            app.log,
          );
    const leaving = instances;
    // Before the server stops taking requests: runs stop and are stored, and their live streams end;
    // then it leaves the servers of the database and lets go of Redis.
    app.addHook('preClose', async () => {
      await sweeper?.stop();
      await lifecycle.shutdown();
      await leaving.remove();
      await redis?.close();
    });
    // Found and checked (each runs a one-request test plan) once the server listens, in the
    // background: start-up does not wait for a JVM, and the first run seldom does.
    app.addHook('onListen', () => {
      void tools.proveAll().then((found) => {
        const installed = found.filter((t) => t.installed).map((t) => `${t.name} ${t.version ?? ''}`.trim());
        app.log.info(
          { tools: installed, usable: found.filter((t) => t.usable).map((t) => t.tool) },
          installed.length > 0 ? 'External load tools found and checked' : 'No external load tool found',
        );
      });
    });
    const validation = new ValidateService(
      { ...DEFAULT_VALIDATION_LIMITS, ...options.validationLimits },
      guard,
    );
    app.addHook('onClose', () => validation.close());
    const imports = new ImportService(
      {
        ...DEFAULT_IMPORT_POOL_OPTIONS,
        queueLength: config.importQueue.length,
        perUser: config.importQueue.perUser,
        ...options.importLimits,
      },
      app.log,
      config.uploads,
      // On disk with the data, not in a tmpfs that would hold the uploads in memory.
      join(config.dataDir, 'uploads'),
    );
    app.addHook('onClose', () => imports.close());
    const demoChange = await demo.sync();
    if (demoChange !== 'unchanged' && demoChange !== 'absent') {
      app.log.info({ demoAccount: demoChange }, 'Demo account synced');
    }
    await sessions.pruneEnded();
    await apiTokens.pruneRevoked();
    // Accounts whose address cannot sign in any more as it reads: told at every start (docs/operations.md §8).
    for (const problem of await accountEmailProblems(users)) {
      app.log.warn({ accountId: problem.accountId, email: problem.email }, problem.message);
    }

    registerErrorHandler(app);
    await registerSecurityHeaders(app);
    await registerOpenApi(app, VERSION);
    // Failed bearer tokens per client address, in the store the sign-in limits use (docs/adr/0012-api-tokens-and-sessions.md).
    const bearerThrottle = new BearerThrottle({
      failuresPerMinute: config.tokenFailuresPerIp,
      now,
      ...(limitStore === undefined ? {} : { store: limitStore }),
    });
    registerAuthentication(app, sessions, apiTokens, bearerThrottle);
    // Every call in its workspace, with the caller's role checked (docs/adr/0035-workspaces-and-roles.md).
    registerWorkspaceHook(app, workspaces);
    // Who created, changed, ran, stopped or deleted what, and when (docs/adr/0034-audit-log.md).
    const audit = new AuditService(new AuditRepository(db), now, app.log, config.auditRetentionDays);
    registerAuditHook(app, audit);
    await audit.prune();
    const auditPruning = setInterval(() => void audit.prune().catch(() => undefined), 24 * 3600_000);
    auditPruning.unref();
    app.addHook('onClose', () => clearInterval(auditPruning));
    await app.register(systemRoutes, {
      pingDatabase: () => pingDatabase(db),
      demo,
      // Signing up makes a password account: closed while passwords do not sign in.
      signUp: config.signUp && config.passwordSignIn,
      sso: config.sso === undefined ? undefined : { name: config.sso.name },
      passwordSignIn: config.passwordSignIn,
      version: VERSION,
      uploads: config.uploads,
    });
    await app.register(accountRoutes, {
      accounts,
      sessions,
      bearerThrottle,
      passwordSignIn: config.passwordSignIn,
    });
    // Single sign-on through the company's OpenID provider, when it is set up (docs/adr/0033-single-sign-on.md).
    const sso =
      config.sso === undefined
        ? undefined
        : new SsoService(config.sso, new SsoLoginRepository(db), users, accounts, sessions, now, app.log);
    await app.register(ssoRoutes, { sso });
    await app.register(tokenRoutes, { apiTokens });
    await app.register(scheduleRoutes, { schedules });
    await app.register(workspaceRoutes, { workspaces });
    await app.register(auditRoutes, { audit });
    await app.register(planRoutes, { plans, validation, runners, schedules });
    await app.register(textCommandRoutes, { textCommands: new TextCommandService(db, now) });
    await app.register(runRoutes, { runs });
    await app.register(agentRoutes, { agents: agents.service });
    await app.register(historyRoutes, createHistoryServices(db, runs));
    await app.register(importRoutes, { imports });
    await app.register(downloadRoutes, { cli: new CliDownloadService() });
    await app.register(functionalRoutes, { plans: functionalPlans, runs: functionalRuns, schedules });
    await app.register(messageRoutes, { messages });
    await app.register(notificationRoutes, { notifications: notifications.channels });
    await app.register(feedbackRoutes, { feedback: new FeedbackService(new FeedbackRepository(db), now) });
    await app.register(assistantRoutes, {
      assistant: new AssistantService(
        new AssistantRepository(db),
        config.assistantModel === undefined ? undefined : new OpenAiCompatibleModel(config.assistantModel),
        now,
      ),
    });
    await registerWebApp(app, config.webDistDir);
    await app.ready();
    return app;
  } catch (error) {
    await instances?.remove().catch(() => undefined);
    await redis?.close();
    await app.close();
    throw error;
  }
}
