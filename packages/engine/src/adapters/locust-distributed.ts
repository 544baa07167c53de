/**
 * Locust's own master/worker mode for runs on load agents (docs/adr/0021-load-agents.md "Locust
 * master/worker"). The server runs the Locust master (its CSV output read by the same LocustResults as
 * a run on the server); each agent runs one `locust --worker` with the same two files. Both load the one
 * wrapper (locust-files.ts, locustWrapper), whose part below does nothing in a plain local run:
 *
 * - a worker tags every stats report with its agent's index (env AQA_LOCUST_AGENT), reports every
 *   second instead of every 3 s, and when its users have stopped sends what it still holds and then an
 *   `aqa_final` message, so the master has every request before it quits; it quits by itself when the
 *   agent that started it is gone (its parent process changed);
 * - the master ends the run itself after `run_time_s` (from LOCUST_MASTER_CONFIG; Locust's own `-t`
 *   would quit the workers and wait only 0.5 s for their last reports), or when LOCUST_STOP_FILE
 *   appears (a stop), or when Locust stopped the test (its last worker went missing): it stops the
 *   workers, waits up to `final_wait_s` for every worker's `aqa_final`, then quits. Meanwhile it
 *   writes LOCUST_WORKERS_FILE: per agent, the users and requests its worker reported.
 */

/** Read by the master's wrapper: { run_time_s, final_wait_s }. */
export const LOCUST_MASTER_CONFIG = 'aqa_master.json';
/** Written by the server to stop the master gracefully (it ends its workers first). */
export const LOCUST_STOP_FILE = 'aqa_stop';
/** Written by the master's wrapper: LocustWorkersFile. */
export const LOCUST_WORKERS_FILE = 'aqa_workers.json';
/** Set by the agent on its worker process: the agent's index in the run. */
export const LOCUST_AGENT_ENV = 'AQA_LOCUST_AGENT';
/** Printed by a worker when it quits: the requests it reported to its master. */
export const LOCUST_WORKER_REQUESTS_LINE = 'aqa-worker-requests:';

/** What a worker reported to the master, by agent index. */
export interface LocustWorkerFigures {
  /** Users the worker ran now (0 once stopped), as its reports say. */
  users: number;
  /** The most users it ran at once. */
  peak_users: number;
  /** Requests it reported (cumulative: each report carries those since the last). */
  requests: number;
  /** Its users stopped and it sent everything it held. */
  final: boolean;
  /** Reports received from it (one a second while it runs). */
  reports: number;
}

export interface LocustWorkersFile {
  /** Epoch seconds of the write. */
  time: number;
  workers: Record<string, LocustWorkerFigures>;
}

/** The master's side of a run on agents: where it listens, and how many workers it waits for. */
export interface LocustMasterOptions {
  /** The address the master binds ('*' for every interface). */
  bindHost: string;
  bindPort: number;
  /** Workers the master waits for before it starts the users. */
  workers: number;
  /** How long the master waits for them, seconds; then it gives up (exit code 1). */
  workersWaitS: number;
  /** How long the master waits for its workers' last reports after stopping them, seconds. */
  finalWaitS: number;
  /** Every time the workers file changed: each agent's figures (index → figures). */
  onWorkers?: (workers: ReadonlyMap<number, LocustWorkerFigures>) => void;
}

/** The workers file's figures by agent index; an unreadable or partial file is null (read it later). */
export function parseLocustWorkers(text: string): Map<number, LocustWorkerFigures> | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const workers = (data as Partial<LocustWorkersFile> | null)?.workers;
  if (typeof workers !== 'object' || workers === null) return null;
  const out = new Map<number, LocustWorkerFigures>();
  for (const [key, value] of Object.entries(workers)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0) continue;
    const w = value as Partial<LocustWorkerFigures>;
    out.set(index, {
      users: Number(w.users) || 0,
      peak_users: Number(w.peak_users) || 0,
      requests: Number(w.requests) || 0,
      final: w.final === true,
      reports: Number(w.reports) || 0,
    });
  }
  return out;
}

/** The Python part of the wrapper for master/worker mode (see the comment at the top of this file). */
export const LOCUST_DISTRIBUTED_PY = `

# --- Locust's own master/worker mode for runs on load agents (docs/adr/0021-load-agents.md) ---
import atexit
import shutil

import gevent
import locust.runners
from locust.runners import MasterRunner, WorkerRunner

# Debian's python3-locust has no version (__version__ == ""): its master takes such a worker for a
# pre-2.0 one and never lets it join. Master and workers load this file, so both say the same.
if not locust.runners.__version__:
    locust.runners.__version__ = "unknown"

AQA_MASTER_CONFIG = ${JSON.stringify(LOCUST_MASTER_CONFIG)}
AQA_STOP_FILE = ${JSON.stringify(LOCUST_STOP_FILE)}
AQA_WORKERS_FILE = ${JSON.stringify(LOCUST_WORKERS_FILE)}


@events.init_command_line_parser.add_listener
def _aqa_worker_defaults(parser):
    # The generated plan sets its run time as a default; a worker refuses any (the master keeps time).
    if "--worker" in sys.argv:
        parser.set_defaults(run_time=None)


def _aqa_write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def _aqa_worker(environment, runner):
    # Reports every second (Locust's default is 3 s), so the master's figures follow the run live.
    locust.runners.WORKER_REPORT_INTERVAL = 1.0
    agent = int(os.environ.get(${JSON.stringify(LOCUST_AGENT_ENV)}, "-1"))
    sent = [0]

    def on_report(client_id, data):
        data["aqa_agent"] = agent
        sent[0] += data.get("stats_total", {}).get("num_requests", 0)

    environment.events.report_to_master.add_listener(on_report)

    def on_stop(**_kw):
        # Everything this worker holds reaches the master before the master hears it has stopped.
        runner._send_stats()
        runner.send_message("aqa_final", {"agent": agent})

    environment.events.test_stop.add_listener(on_stop)

    def on_quit(**_kw):
        _aqa_say(sys.stdout, "${LOCUST_WORKER_REQUESTS_LINE} %d\\n" % sent[0])

    environment.events.quit.add_listener(on_quit)
    _aqa_worker_runner.append(runner)


# A worker whose agent is gone quits (connected: gracefully, its last report sent; still dialling its
# master: at once). Started at import, since a worker reaches its init only once the master answered.
_aqa_worker_runner = []


def _aqa_say(stream, text):
    # The agent reads this through a pipe; once it is gone, writing fails, and must not stop the quitting.
    try:
        stream.write(text)
        stream.flush()
    except Exception:
        pass


def _aqa_watch_parent(parent):
    while True:
        gevent.sleep(1)
        if os.getppid() != parent:
            _aqa_say(sys.stderr, "aqa: the agent that started this worker is gone; quitting\\n")
            # The agent would have removed this worker's folder; it cannot any more.
            here = os.getcwd()
            if _aqa_worker_runner:
                atexit.register(shutil.rmtree, here, True)
                _aqa_worker_runner[0].quit()
            else:
                shutil.rmtree(here, True)
                os._exit(1)
            return


if "--worker" in sys.argv:
    gevent.spawn(_aqa_watch_parent, os.getppid())


def _aqa_master(environment, runner):
    with open(AQA_MASTER_CONFIG) as f:
        config = json.load(f)
    run_time = float(config["run_time_s"])
    final_wait = float(config.get("final_wait_s", 5))
    workers = {}
    ending = []

    def figures(agent):
        return workers.setdefault(
            str(agent), {"users": 0, "peak_users": 0, "requests": 0, "final": False, "reports": 0}
        )

    def write():
        _aqa_write_json(AQA_WORKERS_FILE, {"time": time.time(), "workers": workers})

    def on_worker_report(client_id, data):
        agent = data.get("aqa_agent")
        if agent is None:
            return
        w = figures(agent)
        w["reports"] += 1
        w["requests"] += data.get("stats_total", {}).get("num_requests", 0)
        if "user_count" in data:
            w["users"] = data["user_count"]
            w["peak_users"] = max(w["peak_users"], data["user_count"])
        write()

    environment.events.worker_report.add_listener(on_worker_report)

    def on_final(msg, **_kw):
        agent = (msg.data or {}).get("agent")
        if agent is None:
            return
        figures(agent)["final"] = True
        write()

    runner.register_message("aqa_final", on_final)

    started = []

    def end(why):
        if ending:
            return
        ending.append(why)
        if not started:
            # Stopped while still waiting for its workers: nothing ran. Locust would go on waiting.
            runner.quit()
            sys.exit(0)
        runner.stop()
        deadline = time.monotonic() + final_wait
        while time.monotonic() < deadline and any(not w["final"] for w in workers.values()):
            gevent.sleep(0.1)
        write()
        runner.quit()

    def on_test_start(**_kw):
        started.append(True)
        gevent.spawn_later(run_time, end, "run time")

    environment.events.test_start.add_listener(on_test_start)

    def on_test_stop(**_kw):
        # Locust stopped the test itself (its last worker went missing): the run ends.
        if not ending:
            gevent.spawn(end, "stopped by Locust")

    environment.events.test_stop.add_listener(on_test_stop)

    def watch_stop_file():
        while not ending:
            if os.path.exists(AQA_STOP_FILE):
                end("stop")
                return
            gevent.sleep(0.2)

    gevent.spawn(watch_stop_file)


@events.init.add_listener
def _aqa_distributed(environment, runner=None, **_kwargs):
    if isinstance(runner, WorkerRunner):
        _aqa_worker(environment, runner)
    elif isinstance(runner, MasterRunner):
        _aqa_master(environment, runner)
`;
