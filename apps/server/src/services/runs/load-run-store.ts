import type { FinalStatus } from '@aqa/plan';
import type { RunUpdate } from '../../db/schema';
import type { RunRepository } from '../../repositories/run.repository';
import type { RunStore } from '../lifecycle/run-store';
import type { RunNotices } from '../message.service';
import type { MessageText } from '../message-text';
import { figureColumns } from './database-output';
import type { RunRecord } from './run-model';
import type { RunEnding } from './run-output';
import { newRunRow, rowToRecord } from './run-rows';

/** How a load run ended, as its row stores it and its message tells it. */
export interface LoadRunEnded {
  /** Who started the run. */
  userId: string;
  /** Whose run it is (docs/adr/0035-workspaces-and-roles.md). */
  workspaceId: string;
  /** The run row's columns its ending writes. */
  columns: RunUpdate;
  /** The run as its message tells it; null to read it back once stored (a dead server's run, rebuilt). */
  record: RunRecord | null;
}

/** A load run as its message tells it: as stored, its status final. */
export type EndedLoadRecord = RunRecord & { status: FinalStatus };

/** The columns a load run's ending writes on its row: its status, times, reason and final figures. */
export function endingColumns(ending: RunEnding): RunUpdate {
  return {
    status: ending.status,
    started_at: ending.started_at,
    ended_at: ending.ended_at,
    error: ending.error,
    error_phrase: ending.error_phrase ? JSON.stringify(ending.error_phrase) : null,
    error_details: ending.error_details,
    ...figureColumns(ending),
    ...(ending.agents === undefined ? {} : { agents: JSON.stringify(ending.agents) }),
    ...(ending.aborted === undefined
      ? {}
      : {
          abort: JSON.stringify({
            aborted: ending.aborted,
            ...(ending.breaking_point === undefined ? {} : { breaking_point: ending.breaking_point }),
          }),
        }),
  };
}

/** The `runs` table as the run lifecycle writes it (docs/run-lifecycle.md §2). */
export class LoadRunStore implements RunStore<RunRecord, LoadRunEnded, EndedLoadRecord> {
  readonly table = 'runs' as const;

  constructor(
    private readonly runs: RunRepository,
    /** Told of every run that ends, once it is stored (docs/reference/02-running.md §2 "Messages"). */
    private readonly notices: RunNotices,
  ) {}

  async insertStarted(record: RunRecord, serverId: string | null): Promise<void> {
    await this.runs.insert({ ...newRunRow(record), server_id: serverId });
  }

  async storeEnding(id: string, { columns }: LoadRunEnded, unfinishedOnly = false): Promise<boolean> {
    if (unfinishedOnly) return this.runs.endUnfinished(id, columns);
    await this.runs.update(id, columns);
    // Its tool has exited (the runner's result has settled): nothing is left to end at the next start.
    await this.runs.forgetProcesses(id);
    return true;
  }

  async notify(
    id: string,
    { userId, workspaceId, record }: LoadRunEnded,
    message: (run: EndedLoadRecord) => MessageText,
  ): Promise<void> {
    let told = record;
    if (told === null) {
      const row = await this.runs.findInWorkspace(workspaceId, id);
      if (row === undefined) return;
      told = rowToRecord(row);
    }
    if (told.status === 'running' || told.status === 'processing') return;
    const ended = { ...told, status: told.status };
    await this.notices.runEnded({ table: this.table, id, userId, workspaceId }, () => message(ended));
  }
}
