import { escapeHtml } from './escape';

/*
 * Charts as inline SVG text, drawn on the server from a run's stored series, so a report needs no
 * script, no chart library and no network to show them.
 */

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { left: 60, right: 16, top: 34, bottom: 38 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
const Y_TICKS = 5;

export interface LineSeries {
  name: string;
  /** A CSS colour. */
  color: string;
  points: { x: number; y: number }[];
}

export interface LineChartSpec {
  title: string;
  /** Unit of the y axis, shown after its numbers. */
  unit: string;
  xLabel: string;
  series: LineSeries[];
  /** A fixed top of the y axis (an error rate's 100 %); otherwise a round number above the data. */
  yMax?: number;
}

/** The smallest of 1, 2, 2.5, 5 × 10^n at or above `value`, so the axis reads in round numbers. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

function formatTick(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return String(Math.round(value));
  return String(Math.round(value * 100) / 100);
}

function frame(title: string, body: string): string {
  return [
    `<svg class="chart" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" preserveAspectRatio="xMidYMid meet">`,
    `<title>${escapeHtml(title)}</title>`,
    `<text x="${MARGIN.left}" y="18" class="chart-title">${escapeHtml(title)}</text>`,
    body,
    '</svg>',
  ].join('\n');
}

function emptyChart(title: string): string {
  return frame(
    title,
    `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" class="chart-empty">No data was recorded for this chart</text>`,
  );
}

function axes(yMax: number, unit: string, xMax: number, xLabel: string): string {
  const parts: string[] = [];
  for (let i = 0; i <= Y_TICKS; i += 1) {
    const value = (yMax / Y_TICKS) * i;
    const y = MARGIN.top + PLOT_H - (PLOT_H / Y_TICKS) * i;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + PLOT_W}" y1="${y}" y2="${y}" class="grid"/>`,
      `<text x="${MARGIN.left - 6}" y="${y + 4}" text-anchor="end" class="tick">${escapeHtml(formatTick(value))}</text>`,
    );
  }
  const xTicks = Math.min(10, Math.max(1, xMax));
  for (let i = 0; i <= xTicks; i += 1) {
    const value = (xMax / xTicks) * i;
    const x = MARGIN.left + (PLOT_W / xTicks) * i;
    parts.push(
      `<text x="${x}" y="${MARGIN.top + PLOT_H + 16}" text-anchor="middle" class="tick">${escapeHtml(formatTick(value))}</text>`,
    );
  }
  parts.push(
    `<text x="${MARGIN.left + PLOT_W / 2}" y="${HEIGHT - 4}" text-anchor="middle" class="axis-label">${escapeHtml(xLabel)}</text>`,
    `<text x="14" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle" class="axis-label" transform="rotate(-90 14 ${MARGIN.top + PLOT_H / 2})">${escapeHtml(unit)}</text>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + PLOT_W}" y1="${MARGIN.top + PLOT_H}" y2="${MARGIN.top + PLOT_H}" class="axis"/>`,
  );
  return parts.join('\n');
}

function legend(series: { name: string; color: string }[]): string {
  let x = WIDTH - MARGIN.right;
  const items: string[] = [];
  // Laid out right to left so the legend ends at the plot's right edge.
  for (const s of [...series].reverse()) {
    const textWidth = s.name.length * 6.5;
    x -= textWidth;
    items.push(`<text x="${x}" y="18" class="legend">${escapeHtml(s.name)}</text>`);
    x -= 14;
    items.push(`<rect x="${x}" y="9" width="10" height="10" fill="${escapeHtml(s.color)}"/>`);
    x -= 12;
  }
  return items.join('\n');
}

export function lineChart(spec: LineChartSpec): string {
  const all = spec.series.flatMap((s) => s.points);
  if (all.length === 0) return emptyChart(spec.title);
  const xMax = Math.max(1, ...all.map((p) => p.x));
  const yMax = spec.yMax ?? niceCeiling(Math.max(...all.map((p) => p.y)));
  const sx = (x: number) => MARGIN.left + (x / xMax) * PLOT_W;
  const sy = (y: number) => MARGIN.top + PLOT_H - (Math.min(Math.max(y, 0), yMax) / yMax) * PLOT_H;
  const lines = spec.series.map((s) => {
    const points = s.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    // A single second is a dot: a polyline of one point draws nothing.
    if (s.points.length === 1) {
      const [p] = s.points;
      return `<circle cx="${sx(p!.x).toFixed(1)}" cy="${sy(p!.y).toFixed(1)}" r="3" fill="${escapeHtml(s.color)}"/>`;
    }
    return `<polyline points="${points}" fill="none" stroke="${escapeHtml(s.color)}" stroke-width="2"/>`;
  });
  return frame(
    spec.title,
    [axes(yMax, spec.unit, xMax, spec.xLabel), ...lines, legend(spec.series)].join('\n'),
  );
}

export interface BarChartSpec {
  title: string;
  unit: string;
  bars: { label: string; value: number }[];
  color: string;
}

export function barChart(spec: BarChartSpec): string {
  if (spec.bars.length === 0 || spec.bars.every((b) => b.value === 0)) return emptyChart(spec.title);
  const yMax = niceCeiling(Math.max(...spec.bars.map((b) => b.value)));
  const slot = PLOT_W / spec.bars.length;
  const barW = slot * 0.7;
  const parts: string[] = [];
  for (let i = 0; i <= Y_TICKS; i += 1) {
    const y = MARGIN.top + PLOT_H - (PLOT_H / Y_TICKS) * i;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + PLOT_W}" y1="${y}" y2="${y}" class="grid"/>`,
      `<text x="${MARGIN.left - 6}" y="${y + 4}" text-anchor="end" class="tick">${escapeHtml(formatTick((yMax / Y_TICKS) * i))}</text>`,
    );
  }
  spec.bars.forEach((bar, i) => {
    const h = (bar.value / yMax) * PLOT_H;
    const x = MARGIN.left + slot * i + (slot - barW) / 2;
    const y = MARGIN.top + PLOT_H - h;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${escapeHtml(spec.color)}"><title>${escapeHtml(`${bar.label}: ${bar.value}`)}</title></rect>`,
      `<text x="${(x + barW / 2).toFixed(1)}" y="${(y - 4).toFixed(1)}" text-anchor="middle" class="tick">${bar.value}</text>`,
      `<text x="${(x + barW / 2).toFixed(1)}" y="${MARGIN.top + PLOT_H + 16}" text-anchor="middle" class="tick">${escapeHtml(bar.label)}</text>`,
    );
  });
  parts.push(
    `<text x="14" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle" class="axis-label" transform="rotate(-90 14 ${MARGIN.top + PLOT_H / 2})">${escapeHtml(spec.unit)}</text>`,
  );
  return frame(spec.title, parts.join('\n'));
}
