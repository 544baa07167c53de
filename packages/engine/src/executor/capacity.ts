import { readdirSync, readFileSync } from 'node:fs';
import { PlanCompileError, type CompiledPlan } from './compile';

/**
 * What the machine lets one process open. Each virtual user keeps its own keep-alive connection
 * per origin, so a run of N users holds about N sockets: past the open-files limit the run would
 * fail mid-way with EMFILE, and past the local port range with EADDRNOTAVAIL. Checked before the
 * run starts instead, with a message that says what to change.
 */
export interface MachineLimits {
  /** Files (sockets included) this process may have open; null where it cannot be read. */
  openFiles: number | null;
  /** Files open now (stdio, the event loop's own, the bundle). */
  openNow: number;
  /** Local ports for outgoing connections to one address and port; null where unknown. */
  localPorts: number | null;
  /** net.ipv4.ip_local_port_range as written, for the message. */
  localPortRange: string | null;
}

/** Files the engine opens besides the users' connections: each worker thread's event loop, the token fetcher's pool, logs. */
const RESERVED_FILES = 64;
const FILES_PER_WORKER = 8;

const read = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/**
 * Reads the limits of this process (Linux /proc; elsewhere the open-files limit is unknown and
 * not checked). Node raises the soft open-files limit to the hard one at start-up, so the figure
 * read here is the hard limit of the shell or service that started it.
 */
export function machineLimits(): MachineLimits {
  let openFiles: number | null = null;
  const limits = read('/proc/self/limits');
  const m = limits === null ? null : /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (m) openFiles = m[1] === 'unlimited' ? null : Number(m[1]);
  let openNow = 0;
  try {
    openNow = readdirSync('/proc/self/fd').length;
  } catch {
    // not Linux
  }
  let localPorts: number | null = null;
  let localPortRange: string | null = null;
  const range = read('/proc/sys/net/ipv4/ip_local_port_range');
  const r = range === null ? null : /^\s*(\d+)\s+(\d+)/.exec(range);
  if (r) {
    localPorts = Number(r[2]) - Number(r[1]) + 1;
    localPortRange = `${r[1]} ${r[2]}`;
  }
  return { openFiles, openNow, localPorts, localPortRange };
}

/**
 * Connections one user may hold at once: one per fixed origin its steps request, plus one for
 * steps whose origin comes from a variable (at least one; more only if a variable takes several
 * hosts, which cannot be known before the run).
 */
export function connectionsPerUser(plan: Pick<CompiledPlan, 'steps'>): {
  perUser: number;
  origins: string[];
} {
  const origins = [...new Set(plan.steps.map((s) => s.origin).filter((o): o is string => o !== null))];
  const templated = plan.steps.some((s) => s.origin === null) ? 1 : 0;
  return { perUser: origins.length + templated, origins };
}

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * Why this machine cannot hold `users` virtual users for this plan, one sentence per problem; empty
 * when it can (as far as these limits tell: memory is the other bound, measured in
 * docs/performance.md).
 */
export function capacityProblems(
  plan: Pick<CompiledPlan, 'steps'>,
  users: number,
  workers: number,
  limits: MachineLimits = machineLimits(),
): string[] {
  const problems: string[] = [];
  const { perUser, origins } = connectionsPerUser(plan);
  const connections = users * perUser;
  if (limits.openFiles !== null) {
    const need = connections + limits.openNow + RESERVED_FILES + workers * FILES_PER_WORKER;
    if (need > limits.openFiles) {
      const fit = Math.max(
        0,
        Math.floor(
          (limits.openFiles - limits.openNow - RESERVED_FILES - workers * FILES_PER_WORKER) / perUser,
        ),
      );
      problems.push(
        `${n(users)} virtual users need about ${n(need)} open files (one connection per user${perUser > 1 ? ` and origin, ${perUser} each` : ''}), but this process may open at most ${n(limits.openFiles)}: raise the limit (\`ulimit -Hn\` shows it; set it with \`ulimit -n ${Math.ceil(need * 1.1)}\` in a root shell, LimitNOFILE= for a systemd service, or /etc/security/limits.conf) or run at most ${n(fit)} users`,
      );
    }
  }
  if (limits.localPorts !== null && users > limits.localPorts && origins.length > 0) {
    problems.push(
      `${n(users)} virtual users each open a connection to ${origins.length === 1 ? origins[0] : 'the same origin'}, but this machine has ${n(limits.localPorts)} local ports for connections to one address (net.ipv4.ip_local_port_range ${limits.localPortRange}): widen the range (sysctl -w net.ipv4.ip_local_port_range="1024 65535"), or run at most ${n(limits.localPorts)} users per machine`,
    );
  }
  return problems;
}

/** The machine cannot hold the run (open files, local ports): thrown before anything starts. */
export class CapacityError extends PlanCompileError {
  constructor(problems: string[]) {
    super(problems);
    this.name = 'CapacityError';
  }
}
