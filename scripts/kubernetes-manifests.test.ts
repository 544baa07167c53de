/**
 * The Kubernetes manifests under deploy/kubernetes and the image of deploy/Dockerfile, checked without a
 * cluster or a container engine (docs/kubernetes.md §6):
 * - every YAML document against the Kubernetes API's own schemas (the kubernetes-models package ships
 *   them compiled, for offline use), and strictly: a field the API does not know (a misspelt
 *   `readinesProbe`) is refused as `kubeconform -strict` would, by TypeScript's excess-property check
 *   against the same package's types;
 * - what the schemas cannot know: every container has resources, the probes ask GET /api/health on the
 *   container's port, every variable given to the server is one apps/server/src/config.ts reads (and
 *   the values parse), the agents' arguments are options of the real `aqa agent`, every $(VAR) is
 *   defined, the kustomizations name files that exist, and the Dockerfile names real paths;
 * - the agents' init container script, run against a local HTTP server.
 * Each check is also shown to fail on a broken copy of the manifests.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ConfigError, parseConfig } from '../apps/server/src/config';
import { main as aqaMain } from '../packages/engine/src/cli/cli';
import { SERVER_ENV, TOKEN_ENV } from '../packages/engine/src/cli/remote-client';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST_DIR = join(ROOT, 'deploy', 'kubernetes');
const DOCKERFILE = join(ROOT, 'deploy', 'Dockerfile');
const CONFIG_SOURCE = join(ROOT, 'apps', 'server', 'src', 'config.ts');
const require = createRequire(import.meta.url);

type Json = Record<string, unknown>;

/** One YAML document of a file under deploy/kubernetes (file relative to the repository). */
interface Manifest {
  file: string;
  doc: Json;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const nameOf = (m: Manifest): string =>
  `${m.file}: ${str(m.doc.kind)} ${str(getPath(m.doc, 'metadata.name'))}`;

function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) current = isObject(current) ? current[key] : undefined;
  return current;
}

const isKustomization = (doc: Json): boolean => str(doc.apiVersion).startsWith('kustomize.config.k8s.io/');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(entry.name) ? [path] : [];
    })
    .sort();
}

/** Every document of every YAML file under `dir`, parsed with the yaml package; a syntax error throws. */
function readManifests(dir: string): Manifest[] {
  return yamlFiles(dir).flatMap((path) => {
    const file = relative(ROOT, path);
    return parseAllDocuments(readFileSync(path, 'utf8')).flatMap((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message ?? ''}`);
      const doc: unknown = document.toJS();
      if (doc === null) return [];
      if (!isObject(doc)) throw new Error(`${file}: a document that is not a mapping`);
      return [{ file, doc }];
    });
  });
}

const objects = (manifests: Manifest[]): Manifest[] => manifests.filter((m) => !isKustomization(m.doc));

// ——— The Kubernetes API's schemas ———

interface SchemaError {
  instancePath?: string;
  message?: string;
}

/** The kubernetes-models class of an object (apiVersion apps/v1, kind Deployment → apps/v1/Deployment). */
function modelClass(apiVersion: string, kind: string): (new (data: Json) => { validate(): void }) | null {
  try {
    const module = require(`kubernetes-models/${apiVersion}/${kind}`) as Record<string, unknown>;
    const model = module[kind];
    return typeof model === 'function' ? (model as new (data: Json) => { validate(): void }) : null;
  } catch {
    return null;
  }
}

/** Each object checked against the API schema of its apiVersion and kind. */
function schemaProblems(manifests: Manifest[]): string[] {
  return objects(manifests).flatMap((m) => {
    const model = modelClass(str(m.doc.apiVersion), str(m.doc.kind));
    if (model === null) return [`${nameOf(m)}: no Kubernetes schema for apiVersion ${str(m.doc.apiVersion)}`];
    try {
      new model(m.doc).validate();
      return [];
    } catch (error) {
      const errors = (error as { errors?: SchemaError[] }).errors ?? [];
      if (errors.length === 0) return [`${nameOf(m)}: ${(error as Error).message}`];
      return errors.map((e) => `${nameOf(m)}: ${e.instancePath || '(the object)'} ${e.message ?? ''}`);
    }
  });
}

/**
 * Fields the API does not know. The schemas leave additionalProperties open, so the same package's
 * TypeScript types do it: each document becomes an object literal of its kind's interface, and the
 * compiler's excess-property check names the first unknown field of each object.
 */
function unknownFieldProblems(manifests: Manifest[]): string[] {
  const known = objects(manifests).filter((m) => modelClass(str(m.doc.apiVersion), str(m.doc.kind)));
  const lines = known.flatMap((m, i) => {
    const type = `I${str(m.doc.kind)}`;
    return [
      `import type { ${type} as T${i} } from 'kubernetes-models/${str(m.doc.apiVersion)}/${str(m.doc.kind)}';`,
      `export const doc${i}: T${i} = ${JSON.stringify(m.doc)};`,
    ];
  });
  const file = join(ROOT, 'scripts', '__kubernetes-manifests__.ts');
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : readSource(name, language, ...rest);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const m = known[Math.floor(line / 2)];
    return m === undefined ? text : `${nameOf(m)}: ${text}`;
  });
}

// ——— Kustomize ———

/**
 * Every file a kustomization names exists (a folder with a kustomization.yaml, not one around the
 * kustomization itself, which kustomize refuses as a cycle), and every manifest is in one (but the
 * *.example.yaml templates).
 */
function kustomizationProblems(manifests: Manifest[], dir: string): string[] {
  const problems: string[] = [];
  const reached = new Set<string>();
  for (const m of manifests.filter((k) => isKustomization(k.doc))) {
    const base = join(ROOT, dirname(m.file));
    const named = [
      ...list(m.doc.resources).map(str),
      ...list(m.doc.patches).map((p) => str(getPath(p, 'path'))),
      ...list(m.doc.configMapGenerator).flatMap((g) => list(getPath(g, 'files')).map(str)),
    ];
    for (const entry of named) {
      const path = resolve(base, entry);
      if (!existsSync(path)) problems.push(`${m.file}: names ${entry}, which does not exist`);
      else if (!relative(path, base).startsWith('..') && statSync(path).isDirectory())
        problems.push(`${m.file}: names ${entry}, a folder that contains it (kustomize refuses the cycle)`);
      else if (statSync(path).isDirectory() && !existsSync(join(path, 'kustomization.yaml')))
        problems.push(`${m.file}: names the folder ${entry}, which has no kustomization.yaml`);
      else reached.add(relative(ROOT, path));
    }
  }
  for (const path of yamlFiles(dir)) {
    const file = relative(ROOT, path);
    if (basename(file) === 'kustomization.yaml' || file.endsWith('.example.yaml')) continue;
    if (!reached.has(file)) problems.push(`${file}: no kustomization names it`);
  }
  return problems;
}

// ——— Pods and containers ———

interface Pod {
  owner: Manifest;
  spec: IPodSpec;
  labels: Json;
}

/** The pod templates of the workloads (Deployments and Jobs). */
function pods(manifests: Manifest[]): Pod[] {
  return objects(manifests).flatMap((owner) => {
    const template = getPath(owner.doc, 'spec.template');
    const spec = getPath(template, 'spec');
    if (!isObject(spec)) return [];
    const labels = getPath(template, 'metadata.labels');
    return [{ owner, spec: spec as unknown as IPodSpec, labels: isObject(labels) ? labels : {} }];
  });
}

const containersOf = (pod: Pod): IContainer[] => [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
const where = (pod: Pod, c: IContainer): string => `${nameOf(pod.owner)}, container ${c.name}`;
const commandOf = (c: IContainer): string[] => [...(c.command ?? []), ...(c.args ?? [])];

/** Requests and limits of CPU and memory on every container: the scheduler and the agents' --cores rely on them. */
function resourceProblems(manifests: Manifest[]): string[] {
  return pods(manifests).flatMap((pod) =>
    containersOf(pod).flatMap((c) =>
      ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']
        .filter((path) => getPath(c.resources, path) === undefined)
        .map((path) => `${where(pod, c)}: no resources.${path}`),
    ),
  );
}

/**
 * What the namespace's `restricted` Pod Security Standard enforces (server/namespace.yaml) — non-root,
 * RuntimeDefault seccomp, no privilege escalation, every capability dropped, no hostPath — and a
 * read-only root file system besides (deploy/Dockerfile runs as uid 1000).
 */
function securityProblems(manifests: Manifest[]): string[] {
  return pods(manifests).flatMap((pod) => {
    const problems: string[] = [];
    if (pod.spec.securityContext?.runAsNonRoot !== true)
      problems.push(`${nameOf(pod.owner)}: the pod does not set runAsNonRoot`);
    if (pod.spec.securityContext?.seccompProfile?.type !== 'RuntimeDefault')
      problems.push(`${nameOf(pod.owner)}: the pod does not use the RuntimeDefault seccomp profile`);
    if ((pod.spec.volumes ?? []).some((v) => v.hostPath !== undefined))
      problems.push(`${nameOf(pod.owner)}: a hostPath volume`);
    for (const c of containersOf(pod)) {
      if (c.securityContext?.readOnlyRootFilesystem !== true)
        problems.push(`${where(pod, c)}: the root file system is writable`);
      if (c.securityContext?.allowPrivilegeEscalation !== false)
        problems.push(`${where(pod, c)}: allowPrivilegeEscalation is not false`);
      if (!(c.securityContext?.capabilities?.drop ?? []).includes('ALL'))
        problems.push(`${where(pod, c)}: does not drop ALL capabilities`);
    }
    return problems;
  });
}

/** Every $(VAR) in a command is defined in the container's env (Kubernetes leaves an unknown one as it is). */
function variableProblems(manifests: Manifest[]): string[] {
  return pods(manifests).flatMap((pod) =>
    containersOf(pod).flatMap((c) => {
      const defined = new Set((c.env ?? []).map((e) => e.name));
      // The Job controller sets JOB_COMPLETION_INDEX in every container of an Indexed Job.
      if (getPath(pod.owner.doc, 'spec.completionMode') === 'Indexed') defined.add('JOB_COMPLETION_INDEX');
      return commandOf(c).flatMap((arg) =>
        [...arg.matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)]
          .map((match) => match[1] ?? '')
          .filter((name) => !defined.has(name))
          .map((name) => `${where(pod, c)}: $(${name}) is not defined in its env`),
      );
    }),
  );
}

// ——— The server ———

/** The names of the variables config.ts reads: the keys of its EnvSchema, read from the source. */
function configVariables(): Set<string> {
  const source = ts.createSourceFile(
    CONFIG_SOURCE,
    readFileSync(CONFIG_SOURCE, 'utf8'),
    ts.ScriptTarget.ES2022,
  );
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText(source) === 'EnvSchema' &&
      node.initializer !== undefined &&
      ts.isCallExpression(node.initializer)
    ) {
      const shape = node.initializer.arguments[0];
      if (shape !== undefined && ts.isObjectLiteralExpression(shape))
        for (const property of shape.properties)
          if (property.name !== undefined) names.add(property.name.getText(source).replace(/['"]/g, ''));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (names.size === 0)
    throw new Error(`${relative(ROOT, CONFIG_SOURCE)}: no EnvSchema = z.object({...}) found`);
  return names;
}

const isServer = (c: IContainer): boolean => /^anybodyqa(:|$)/.test(c.image ?? '');

/** The documents of one kind and name (a ConfigMap and the overlays' patches of it). */
const named = (manifests: Manifest[], kind: string, name: string): Manifest[] =>
  objects(manifests).filter((m) => m.doc.kind === kind && getPath(m.doc, 'metadata.name') === name);

/** What a server container's environment is made of. */
interface ServerEnvironment {
  /** As `kubectl apply -k deploy/kubernetes` gives it: the base ConfigMaps and the Secret templates' values. */
  env: Record<string, string>;
  /** The overlays' patches of those ConfigMaps (ingress/trust-proxy.yaml), each applied on top of env. */
  patches: Manifest[];
}

/**
 * The environment a server container gets: its ConfigMaps (the base one, and the patches overlays make
 * of it) and its Secrets' values from the *.example.yaml templates.
 * Names and values are checked by config.ts itself.
 */
function serverEnvironment(manifests: Manifest[], c: IContainer, where: string, problems: string[]) {
  const found: ServerEnvironment = { env: {}, patches: [] };
  for (const source of c.envFrom ?? []) {
    const name = source.configMapRef?.name ?? '';
    const all = named(manifests, 'ConfigMap', name);
    const patches = all.filter((m) => isPatch(manifests, m));
    const base = all.find((m) => !patches.includes(m));
    if (base === undefined) problems.push(`${where}: envFrom names the ConfigMap ${name}, which is not here`);
    else Object.assign(found.env, stringData(base.doc, 'data'));
    found.patches.push(...patches);
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref !== undefined) {
      const value = named(manifests, 'Secret', ref.name ?? '')
        .map((m) => getPath(m.doc, `stringData.${ref.key}`))
        .find((v) => typeof v === 'string');
      if (value === undefined) problems.push(`${where}: the Secret template has no ${ref.key} for ${e.name}`);
      found.env[e.name] = str(value);
    } else found.env[e.name] = e.value ?? '';
  }
  return found;
}

/** A document that a kustomization names under `patches`, not under `resources`. */
const isPatch = (manifests: Manifest[], m: Manifest): boolean =>
  manifests
    .filter((k) => isKustomization(k.doc))
    .some((k) => list(k.doc.patches).some((p) => join(dirname(k.file), str(getPath(p, 'path'))) === m.file));

/** A ConfigMap's data (or a Secret's stringData) as strings. */
const stringData = (doc: Json, field: string): Record<string, string> =>
  Object.fromEntries(Object.entries(getPath(doc, field) ?? {}).map(([k, v]) => [k, String(v)]));

/** The problems config.ts finds in an environment, by name and by value; its Config when there are none. */
function configOf(env: Record<string, string>, variables: Set<string>, at: string, problems: string[]) {
  for (const name of Object.keys(env))
    if (!variables.has(name))
      problems.push(`${at}: ${name} is not a variable apps/server/src/config.ts reads`);
  try {
    return parseConfig(env, '/app');
  } catch (error) {
    problems.push(`${at}: ${error instanceof ConfigError ? error.problems.join('; ') : String(error)}`);
    return undefined;
  }
}

/** The server container: its variables, probes, port and writable folders. */
function serverProblems(manifests: Manifest[], variables: Set<string>): string[] {
  const problems: string[] = [];
  const servers = pods(manifests).flatMap((pod) =>
    pod.spec.containers.filter(isServer).map((c) => ({ pod, c })),
  );
  if (servers.length === 0) problems.push('no container runs the anybodyqa image');
  for (const { pod, c } of servers) {
    const at = where(pod, c);
    const { env, patches } = serverEnvironment(manifests, c, at, problems);
    const config = configOf(env, variables, at, problems);
    // Each overlay's patch on top of a base that parses (a broken base is reported once, above).
    for (const patch of config === undefined ? [] : patches)
      configOf({ ...env, ...stringData(patch.doc, 'data') }, variables, `${at} with ${patch.file}`, problems);
    const ports = c.ports ?? [];
    const served = ports.find((p) => p.containerPort === config?.port);
    if (config !== undefined && served === undefined)
      problems.push(`${at}: PORT ${config.port} is not a container port`);
    if (config !== undefined && config.host !== '0.0.0.0')
      problems.push(
        `${at}: HOST is ${config.host}; the probes and the Service reach the pod from outside it`,
      );
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      const probe = c[kind];
      if (probe === undefined) {
        if (kind !== 'startupProbe') problems.push(`${at}: no ${kind}`);
        continue;
      }
      if (probe.httpGet?.path !== '/api/health')
        problems.push(`${at}: the ${kind} does not ask GET /api/health`);
      const port = probe.httpGet?.port;
      if (served !== undefined && port !== served.containerPort && port !== served.name)
        problems.push(`${at}: the ${kind} asks port ${String(port)}, not the server's`);
    }
    const mounts = (c.volumeMounts ?? []).map((v) => v.mountPath);
    for (const folder of [config?.dataDir, '/tmp'])
      if (folder !== undefined && !mounts.includes(folder))
        problems.push(`${at}: no volume at ${folder}, which the server writes to`);
  }
  // The Service reaches the server pods on their port.
  for (const service of objects(manifests).filter((m) => m.doc.kind === 'Service')) {
    const selector = getPath(service.doc, 'spec.selector');
    const targets = servers.filter(({ pod }) =>
      Object.entries(isObject(selector) ? selector : {}).every(([k, v]) => pod.labels[k] === v),
    );
    if (targets.length === 0) problems.push(`${nameOf(service)}: its selector matches no server pod`);
    for (const port of list(getPath(service.doc, 'spec.ports'))) {
      const target = getPath(port, 'targetPort');
      for (const { c } of targets)
        if (!(c.ports ?? []).some((p) => p.name === target || p.containerPort === target))
          problems.push(`${nameOf(service)}: targetPort ${String(target)} is no port of ${c.name}`);
    }
  }
  return problems;
}

// ——— The agents ———

/** The arguments after `agent` of a container that runs `node …/aqa.mjs agent …`, or null. */
function agentArguments(c: IContainer): string[] | null {
  const command = commandOf(c);
  const at = command.findIndex((arg, i) => arg === 'agent' && (command[i - 1] ?? '').endsWith('aqa.mjs'));
  return at < 0 ? null : command.slice(at + 1);
}

/** CPU as a number of cores: "2", "1.5", "500m". */
const cores = (quantity: unknown): number =>
  typeof quantity === 'number'
    ? quantity
    : str(quantity).endsWith('m')
      ? Number(str(quantity).slice(0, -1)) / 1000
      : Number(quantity);

/**
 * The agent containers: options `aqa agent` has, only the variables it reads (AQA_SERVER, AQA_TOKEN)
 * or that its command uses, --cores within the CPU limit, and the program where the init container
 * saves it, with the init container's script from the ConfigMap the kustomization generates.
 */
function agentProblems(manifests: Manifest[], options: Set<string>): string[] {
  const problems: string[] = [];
  const agents = pods(manifests).flatMap((pod) =>
    pod.spec.containers.flatMap((c) => {
      const args = agentArguments(c);
      return args === null ? [] : [{ pod, c, args }];
    }),
  );
  if (agents.length === 0) problems.push('no container runs aqa agent');
  for (const { pod, c, args } of agents) {
    const at = where(pod, c);
    for (const arg of args.filter((a) => a.startsWith('-')))
      if (!options.has(arg.split('=')[0] ?? '')) problems.push(`${at}: aqa agent has no option ${arg}`);
    const used = commandOf(c).join(' ');
    for (const e of c.env ?? [])
      if (e.name !== SERVER_ENV && e.name !== TOKEN_ENV && !used.includes(`$(${e.name})`))
        problems.push(`${at}: aqa agent does not read ${e.name}, and the command does not use it`);
    const coresArg = args[args.indexOf('--cores') + 1];
    if (args.includes('--cores') && !(Number(coresArg) <= cores(c.resources?.limits?.cpu)))
      problems.push(`${at}: --cores ${String(coresArg)} is more than the CPU limit`);
    // The program: saved by an init container on a volume both mount.
    const program = commandOf(c).find((arg) => arg.endsWith('aqa.mjs')) ?? '';
    const init = (pod.spec.initContainers ?? []).find((i) => commandOf(i).includes(program));
    if (init === undefined) {
      problems.push(`${at}: no init container saves ${program}`);
      continue;
    }
    const volumeAt = (container: IContainer, path: string) =>
      (container.volumeMounts ?? []).find((v) => path.startsWith(`${v.mountPath}/`))?.name;
    if (volumeAt(c, program) === undefined || volumeAt(c, program) !== volumeAt(init, program))
      problems.push(`${at}: ${program} is not on a volume the init container ${init.name} also mounts`);
    // The init container's script comes from a generated ConfigMap of that file name.
    const script = commandOf(init).find((arg) => arg.endsWith('.mjs') && arg !== program) ?? '';
    const volume = pod.spec.volumes?.find((v) => v.name === volumeAt(init, script));
    const generated = manifests
      .filter((k) => isKustomization(k.doc))
      .flatMap((k) => list(k.doc.configMapGenerator))
      .find((g) => getPath(g, 'name') === volume?.configMap?.name);
    if (!list(getPath(generated, 'files')).map(str).includes(basename(script)))
      problems.push(`${where(pod, init)}: ${script} is not a file of a generated ConfigMap mounted there`);
  }
  return problems;
}

/**
 * `aqa agent <args>` through the command line's own entry (packages/engine/src/cli/cli.ts `main`, the
 * code of the aqa.mjs the pods run), in this process: what it writes is caught, not printed.
 */
async function aqaAgent(args: string[]): Promise<Output> {
  const output: Output = { code: null, stdout: '', stderr: '' };
  const catcher = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
    output[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(catcher('stdout'));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(catcher('stderr'));
  try {
    output.code = await aqaMain(['agent', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return output;
}

/** The options of `aqa agent`, from the program's own help (`aqa agent --help`). */
async function agentOptions(): Promise<Set<string>> {
  const output = await aqaAgent(['--help']);
  if (output.code !== 0 || !output.stdout.includes('aqa agent'))
    throw new Error(`aqa agent --help did not answer its help (exit ${output.code}): ${output.stderr}`);
  return new Set([...output.stdout.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
}

/**
 * Each agent container's arguments given to the real `aqa agent` parser, with its $(VARS) filled in and
 * --help last: a strict parser refuses an unknown option or a missing value (exit 2) before it would
 * print the help (exit 0).
 */
async function agentParserProblems(manifests: Manifest[]): Promise<string[]> {
  const runs = pods(manifests).flatMap((pod) =>
    pod.spec.containers.flatMap((c) => {
      const args = agentArguments(c);
      if (args === null) return [];
      const filled = args.map((arg) =>
        arg.replace(/\$\(([A-Z_]+)\)/g, (_all, name: string) => name.toLowerCase()),
      );
      return [
        aqaAgent([...filled, '--help']).then((output) =>
          output.code === 0
            ? []
            : [`${where(pod, c)}: aqa agent ${filled.join(' ')}: ${output.stderr.trim()}`],
        ),
      ];
    }),
  );
  return (await Promise.all(runs)).flat();
}

// ——— The image ———

/** The Dockerfile's instructions, continuation lines joined and comments left out. */
function dockerInstructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

/** What can be checked of an image that cannot be built here: its paths, workspaces, port and command. */
function dockerfileProblems(text: string, manifests: Manifest[], variables: Set<string>): string[] {
  const problems: string[] = [];
  const instructions = dockerInstructions(text);
  const copied = new Set<string>();
  for (const { op, args } of instructions.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
    const sources = args.split(/\s+/).slice(0, -1);
    for (const source of sources) {
      copied.add(source);
      if (!existsSync(join(ROOT, source))) problems.push(`${op} ${source}: no such path in the repository`);
    }
  }
  // npm ci needs every workspace's package.json before the sources are copied.
  const workspaces = ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(ROOT, group))
      .filter((name) => existsSync(join(ROOT, group, name, 'package.json')))
      .map((name) => `${group}/${name}`),
  );
  for (const workspace of workspaces)
    if (!copied.has(`${workspace}/package.json`))
      problems.push(`the Dockerfile does not copy ${workspace}/package.json before npm ci`);
  const names = new Map(
    workspaces.map((w) => [
      (JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')) as { name: string }).name,
      w,
    ]),
  );
  for (const { args } of instructions.filter((i) => i.op === 'RUN'))
    for (const match of args.matchAll(/npm run build -w (\S+)/g)) {
      const workspace = names.get(match[1] ?? '');
      if (workspace === undefined) problems.push(`RUN ${match[0]}: no workspace ${match[1] ?? ''}`);
    }
  for (const { args } of instructions.filter((i) => i.op === 'RUN'))
    for (const match of args.matchAll(/\bnode (\S+\.mjs)/g))
      if (!existsSync(join(ROOT, match[1] ?? ''))) problems.push(`RUN node ${match[1] ?? ''}: no such file`);
  // The command is the one `npm start` runs after its checks (scripts/start.mjs).
  const cmd = instructions.filter((i) => i.op === 'CMD').at(-1)?.args ?? '';
  const program = (JSON.parse(cmd || '[]') as string[])[1] ?? '';
  if (!readFileSync(join(ROOT, 'scripts', 'start.mjs'), 'utf8').includes(`'${program}'`))
    problems.push(`CMD runs ${program}, not the server scripts/start.mjs starts`);
  // ENV: variables config.ts reads (and Node's own), the port the manifests expose.
  const env = new Map<string, string>();
  for (const { args } of instructions.filter((i) => i.op === 'ENV'))
    for (const match of args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env.set(match[1] ?? '', match[2] ?? '');
  for (const name of env.keys())
    if (!variables.has(name) && name !== 'NODE_ENV' && name !== 'HOME')
      problems.push(`ENV ${name}: not a variable apps/server/src/config.ts reads`);
  const expose = instructions.find((i) => i.op === 'EXPOSE')?.args;
  const containerPorts = pods(manifests).flatMap((pod) =>
    pod.spec.containers.filter(isServer).flatMap((c) => (c.ports ?? []).map((p) => String(p.containerPort))),
  );
  if (expose !== env.get('PORT') || !containerPorts.includes(expose ?? ''))
    problems.push(`EXPOSE ${String(expose)}, ENV PORT and the container port differ`);
  const user = instructions.filter((i) => i.op === 'USER').at(-1)?.args;
  if (user !== 'node') problems.push('the image does not run as the node user (uid 1000)');
  return problems;
}

// ——— Running programs ———

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runNode(args: string[]): Promise<Output> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

// ——— The tests ———

const clone = (manifests: Manifest[]): Manifest[] => structuredClone(manifests);

/** The one document of `file` (relative to deploy/kubernetes) of a (cloned) set. */
function doc(manifests: Manifest[], file: string): Json {
  const found = manifests.find((m) => m.file === join('deploy', 'kubernetes', file));
  if (found === undefined) throw new Error(`no ${file}`);
  return found.doc;
}

/** The first container of a workload document. */
const firstContainer = (workload: Json, init = false): IContainer =>
  (
    getPath(
      workload,
      init ? 'spec.template.spec.initContainers' : 'spec.template.spec.containers',
    ) as IContainer[]
  )[0] as IContainer;

const SERVER_AT =
  'deploy/kubernetes/server/server-deployment.yaml: Deployment anybodyqa-server, container server';

let manifests: Manifest[];
let variables: Set<string>;
let options: Set<string>;

beforeAll(async () => {
  manifests = readManifests(MANIFEST_DIR);
  variables = configVariables();
  options = await agentOptions();
}, 30_000);

describe('the manifests under deploy/kubernetes', () => {
  it('are valid objects of the Kubernetes API, with no field it does not know', () => {
    expect(objects(manifests).length).toBeGreaterThanOrEqual(10);
    expect(schemaProblems(manifests)).toEqual([]);
    expect(unknownFieldProblems(manifests)).toEqual([]);
  });

  it('are all named by a kustomization, which names only files that exist', () => {
    expect(kustomizationProblems(manifests, MANIFEST_DIR)).toEqual([]);
  });

  it('give every container resources, a non-root user and a read-only root file system', () => {
    expect(resourceProblems(manifests)).toEqual([]);
    expect(securityProblems(manifests)).toEqual([]);
    expect(variableProblems(manifests)).toEqual([]);
  });

  it('give the server only variables config.ts reads, with values it accepts, and probe GET /api/health on its port', () => {
    expect(variables).toContain('DATABASE_URL');
    expect(variables).toContain('REDIS_URL');
    // Agents speak only HTTP to the server (docs/adr/0023-agents-over-http.md): no Redis address for them.
    expect(variables).not.toContain('AQA_AGENT_REDIS_URL');
    expect(serverProblems(manifests, variables)).toEqual([]);
  });

  it('run the agents with options of aqa agent and the program their init container saves', async () => {
    expect(options).toContain('--name');
    expect(agentProblems(manifests, options)).toEqual([]);
    expect(await agentParserProblems(manifests)).toEqual([]);
  });

  it('build the server image from paths, workspaces and a command that exist', () => {
    expect(dockerfileProblems(readFileSync(DOCKERFILE, 'utf8'), manifests, variables)).toEqual([]);
  });
});

describe('the checks find what is wrong', () => {
  it('a field of the wrong type, and a misspelt field', () => {
    const broken = clone(manifests);
    const server = doc(broken, 'server/server-deployment.yaml');
    (server.spec as Json).replicas = 'two';
    const container = firstContainer(server) as unknown as Json;
    container.readinesProbe = container.readinessProbe;
    expect(schemaProblems(broken)).toEqual([
      'deploy/kubernetes/server/server-deployment.yaml: Deployment anybodyqa-server: /spec/replicas must be integer',
    ]);
    const unknown = unknownFieldProblems(broken);
    expect(unknown.join('\n')).toMatch(
      /known properties, and '"readinesProbe"' does not exist in type 'IContainer'/,
    );
    expect(unknown.join('\n')).toContain("Type 'string' is not assignable to type 'number'");
  });

  it('a kustomization naming a missing file or a folder around it, and a manifest no kustomization names', () => {
    const broken = clone(manifests);
    (doc(broken, 'server/kustomization.yaml').resources as string[]).splice(1, 1, 'server-configs.yaml');
    (doc(broken, 'ingress/kustomization.yaml').resources as string[]).splice(0, 1, '../');
    expect(kustomizationProblems(broken, MANIFEST_DIR)).toEqual([
      'deploy/kubernetes/ingress/kustomization.yaml: names ../, a folder that contains it (kustomize refuses the cycle)',
      'deploy/kubernetes/server/kustomization.yaml: names server-configs.yaml, which does not exist',
      'deploy/kubernetes/server/server-config.yaml: no kustomization names it',
    ]);
  });

  it('a container without resources, a writable root, an undefined $(VAR)', () => {
    const broken = clone(manifests);
    const agent = firstContainer(doc(broken, 'agents/job/agents-job.yaml'));
    delete agent.resources;
    agent.securityContext = { readOnlyRootFilesystem: false, allowPrivilegeEscalation: false };
    (agent.command ?? []).splice(4, 1, 'agent-$(JOB_INDEX)');
    const where = 'deploy/kubernetes/agents/job/agents-job.yaml: Job anybodyqa-agents, container agent';
    expect(resourceProblems(broken)).toEqual(
      ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'].map(
        (p) => `${where}: no resources.${p}`,
      ),
    );
    expect(securityProblems(broken)).toEqual([
      `${where}: the root file system is writable`,
      `${where}: does not drop ALL capabilities`,
    ]);
    expect(variableProblems(broken)).toEqual([`${where}: $(JOB_INDEX) is not defined in its env`]);
  });

  it('a variable config.ts does not read, and a value it refuses, also in an overlay', () => {
    const broken = clone(manifests);
    firstContainer(doc(broken, 'server/server-deployment.yaml')).env?.push({
      name: 'DATABSE_URL',
      value: 'x',
    });
    (doc(broken, 'server/server-config.yaml').data as Json).MAX_RUNS_PER_USER = 'two';
    expect(serverProblems(broken, variables)).toEqual([
      `${SERVER_AT}: DATABSE_URL is not a variable apps/server/src/config.ts reads`,
      `${SERVER_AT}: MAX_RUNS_PER_USER: must be a number`,
    ]);
    const patched = clone(manifests);
    (doc(patched, 'ingress/trust-proxy.yaml').data as Json).TRUST_PROXY = 'yes';
    expect(serverProblems(patched, variables)).toEqual([
      `${SERVER_AT} with deploy/kubernetes/ingress/trust-proxy.yaml: TRUST_PROXY: must be "on" or "off"`,
    ]);
  });

  it("probes that miss the server's health, a server on loopback, a Service on another port", () => {
    const broken = clone(manifests);
    const server = firstContainer(doc(broken, 'server/server-deployment.yaml'));
    if (server.livenessProbe?.httpGet) server.livenessProbe.httpGet.path = '/health';
    if (server.readinessProbe?.httpGet) server.readinessProbe.httpGet.port = 8080;
    (doc(broken, 'server/server-config.yaml').data as Json).HOST = '127.0.0.1';
    (getPath(doc(broken, 'server/server-service.yaml'), 'spec.ports') as Json[])[0] = {
      port: 80,
      targetPort: 'web',
    };
    expect(serverProblems(broken, variables)).toEqual([
      `${SERVER_AT}: HOST is 127.0.0.1; the probes and the Service reach the pod from outside it`,
      `${SERVER_AT}: the readinessProbe asks port 8080, not the server's`,
      `${SERVER_AT}: the livenessProbe does not ask GET /api/health`,
      'deploy/kubernetes/server/server-service.yaml: Service anybodyqa-server: targetPort web is no port of server',
    ]);
  });

  it('an option aqa agent does not have, a variable it does not read, more cores than the CPU limit', async () => {
    const broken = clone(manifests);
    const agent = firstContainer(doc(broken, 'agents/pool/agents-pool.yaml'));
    const command = agent.command ?? [];
    command.splice(command.indexOf('--name'), 1, '--nmae');
    command.splice(command.indexOf('--cores') + 1, 1, '4');
    agent.env?.push({ name: 'AQA_REDIS', value: 'redis://redis:6379' });
    const at =
      'deploy/kubernetes/agents/pool/agents-pool.yaml: Deployment anybodyqa-agent-pool, container agent';
    expect(agentProblems(broken, options)).toEqual([
      `${at}: aqa agent has no option --nmae`,
      `${at}: aqa agent does not read AQA_REDIS, and the command does not use it`,
      `${at}: --cores 4 is more than the CPU limit`,
    ]);
    const [refused] = await agentParserProblems(broken.filter((m) => m.file.endsWith('agents-pool.yaml')));
    expect(refused).toMatch(/Unknown option '--nmae'/);
  });

  it('a Dockerfile that misses a workspace, copies a missing path or exposes another port', () => {
    const text = readFileSync(DOCKERFILE, 'utf8')
      .replace('COPY packages/plan/package.json packages/plan/\n', '')
      .replace('COPY . .', 'COPY . .\nCOPY tools/ tools/')
      .replace('EXPOSE 5200', 'EXPOSE 8080');
    expect(dockerfileProblems(text, manifests, variables)).toEqual([
      'COPY tools/: no such path in the repository',
      'the Dockerfile does not copy packages/plan/package.json before npm ci',
      'EXPOSE 8080, ENV PORT and the container port differ',
    ]);
  });
});

describe("the agents' init container script", () => {
  const script = join(MANIFEST_DIR, 'agents', 'common', 'fetch-aqa.mjs');
  const program = Buffer.from('// the aqa command line, as the server serves it\n');
  let server: Server;
  let base = '';
  let requests = 0;
  let failFirst = 0;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aqa-fetch-'));
    // Counts the downloads; answers 503 (the server's own words) to the first `failFirst` of them.
    server = createServer((request, response) => {
      requests += 1;
      if (request.url !== '/downloads/aqa.mjs') return void response.writeHead(404).end('no such page');
      if (requests <= failFirst) return void response.writeHead(503).end('The aqa command line is not built');
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(program);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((done) => server.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The init container's own command, with the server's address and the output folder of this test. */
  function initCommand(attempts: string): string[] {
    const init = firstContainer(doc(manifests, 'agents/job/agents-job.yaml'), true);
    const command = commandOf(init);
    expect(command.slice(0, 2)).toEqual(['node', '/opt/fetch/fetch-aqa.mjs']);
    return command
      .slice(1)
      .map((arg) =>
        arg
          .replace('/opt/fetch/fetch-aqa.mjs', script)
          .replace('$(AQA_SERVER)', base)
          .replace('/opt/aqa', dir),
      )
      .map((arg, i) => (i === 3 ? attempts : i === 4 ? '0.05' : arg));
  }

  it('saves the served program, trying again while the server answers 503', async () => {
    requests = 0;
    failFirst = 2;
    const output = await runNode(initCommand('5'));
    expect(output.code).toBe(0);
    expect(requests).toBe(3);
    expect(output.stderr).toContain('Attempt 1 of 5');
    expect(output.stderr).toContain('answered 503: The aqa command line is not built');
    expect(readFileSync(join(dir, 'aqa.mjs'))).toEqual(program);
  });

  it('fails the pod with the server’s words after the last attempt', async () => {
    requests = 0;
    failFirst = 10;
    const output = await runNode(initCommand('2'));
    expect(output.code).toBe(1);
    expect(requests).toBe(2);
    expect(output.stderr).toContain(`Gave up after 2 attempts: ${base}/downloads/aqa.mjs answered 503`);
  });
});
