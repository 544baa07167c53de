import { generateScript } from '@aqa/converters';
import type { PerfPlan } from '@aqa/plan';
import { LOCUST_DISTRIBUTED_PY } from './locust-distributed';

/**
 * What a Locust run is given (the driver is locust.ts): the script generated for the plan, and the
 * wrapper locustfile that runs it and makes Locust's CSV output live and complete (locust-output.ts
 * reads what it writes).
 */

export const LOCUST_PREFIX = 'aqa';
export const LOCUST_WRAPPER = 'aqa_locustfile.py';
/** The exact totals the wrapper writes once the users stopped. */
export const FINAL_JSON = `${LOCUST_PREFIX}_aqa_final.json`;

/** The wrapper locustfile: loads the generated one and completes Locust's CSV output. */
export function locustWrapper(planFile: string, prefix = LOCUST_PREFIX): string {
  return `# AnybodyQA: runs ${planFile} and makes Locust's CSV results live and complete.
import csv
import importlib.util
import json
import os
import sys
import time

import locust.stats
from locust import events

PLAN_FILE = ${JSON.stringify(planFile)}
CSV_PREFIX = ${JSON.stringify(prefix)}

# Locust flushes its CSV files every 10 s; every second lets the run be followed live.
locust.stats.CSV_STATS_FLUSH_INTERVAL_SEC = 0

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("aqa_plan", os.path.join(_here, PLAN_FILE))
_plan = importlib.util.module_from_spec(_spec)
sys.modules["aqa_plan"] = _plan
_spec.loader.exec_module(_plan)
globals().update({k: v for k, v in vars(_plan).items() if not k.startswith("__")})

_aqa_env = []


@events.init.add_listener
def _aqa_init(environment, **_kwargs):
    _aqa_env.append(environment)


def _aqa_entry(e):
    return {
        "method": e.method or "",
        "name": e.name,
        "num_requests": e.num_requests,
        "num_failures": e.num_failures,
        "total_response_time": e.total_response_time,
        "min_response_time": e.min_response_time or 0,
        "max_response_time": e.max_response_time,
        "total_content_length": e.total_content_length,
        "start_time": e.start_time,
        "last_request_timestamp": e.last_request_timestamp,
        "response_times": [[k, v] for k, v in e.response_times.items()],
    }


@events.quit.add_listener
def _aqa_final(**_kwargs):
    # The users have stopped: write the final totals (Locust's last periodic write may be a second old).
    if not _aqa_env:
        return
    env = _aqa_env[0]
    try:
        writer = locust.stats.StatsCSV(env, locust.stats.PERCENTILES_TO_REPORT)
        with open(CSV_PREFIX + "_stats.csv", "w", newline="") as f:
            writer.requests_csv(csv.writer(f))
        with open(CSV_PREFIX + "_failures.csv", "w", newline="") as f:
            writer.failures_csv(csv.writer(f))
        data = {
            "time": time.time(),
            "entries": [_aqa_entry(e) for e in env.stats.entries.values()],
            "total": _aqa_entry(env.stats.total),
        }
        tmp = CSV_PREFIX + "_aqa_final.json.tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, CSV_PREFIX + "_aqa_final.json")
    except Exception as error:  # keep Locust's own exit path
        sys.stderr.write("aqa: the final results were not written: %r\\n" % (error,))
${LOCUST_DISTRIBUTED_PY}`;
}

/** A file of a Locust run, as a load agent writes it into its worker's folder. */
export interface LocustFile {
  name: string;
  content: string;
}

/**
 * What a Locust worker on a load agent runs (docs/adr/0021-load-agents.md "Locust master/worker"): the
 * script generated for the plan by the same generator as the master's, so both have the same user
 * class, and the wrapper; `locustfile` is the one to give `-f`.
 */
export function locustWorkerFiles(plan: PerfPlan): { files: LocustFile[]; locustfile: string } {
  const script = generateScript(plan, 'locust');
  const files: LocustFile[] = script.files.map((f) => ({ name: f.name, content: f.content }));
  files.push({ name: LOCUST_WRAPPER, content: locustWrapper(files[0]!.name) });
  return { files, locustfile: LOCUST_WRAPPER };
}
