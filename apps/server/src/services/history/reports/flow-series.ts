import type { ChartData } from '@aqa/plan';

/* A run's per-second iterations of each flow, as the HTML and CSV reports lay them out. */

/** The flows named in a run's seconds, in the plan's order. */
export function flowNames(chart: ChartData): string[] {
  const names: string[] = [];
  for (const point of chart.series) {
    for (const flow of point.flows ?? []) if (!names.includes(flow.name)) names.push(flow.name);
  }
  return names;
}

type FlowSecond = NonNullable<ChartData['series'][number]['flows']>[number];

/** Whether the run's seconds carry their flows' calls (the built-in engine measures them; tools do not). */
export function flowsMeasureCalls(chart: ChartData): boolean {
  return chart.series.some((point) => point.flows?.some((flow) => flow.requests !== undefined) === true);
}

/** A flow's second, when the second lists it. */
export function flowSecond(
  flows: ChartData['series'][number]['flows'],
  name: string,
): FlowSecond | undefined {
  return flows?.find((flow) => flow.name === name);
}

/** A flow's iterations in one second (0 in a second that did not list it). */
export function flowAt(flows: ChartData['series'][number]['flows'], name: string): number {
  return flows?.find((flow) => flow.name === name)?.iterations ?? 0;
}
