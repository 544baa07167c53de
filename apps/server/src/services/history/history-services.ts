import type { Db } from '../../db/database';
import { DashboardRepository } from '../../repositories/dashboard.repository';
import { PlanRepository } from '../../repositories/plan.repository';
import { RunRepository } from '../../repositories/run.repository';
import type { RunService } from '../runs/run.service';
import { CompareService } from './compare.service';
import { DashboardService } from './dashboard.service';
import { HistoryService } from './history.service';
import { ReportService } from './reports/report.service';

/** The results history's services (docs/history-api.md), over the app's database and run manager. */
export function createHistoryServices(db: Db, runs: RunService) {
  const runRows = new RunRepository(db);
  const planRows = new PlanRepository(db);
  return {
    history: new HistoryService(runRows, planRows, runs),
    dashboard: new DashboardService(new DashboardRepository(db), planRows, runRows),
    compare: new CompareService(runRows, runs),
    reports: new ReportService(runs),
  };
}
