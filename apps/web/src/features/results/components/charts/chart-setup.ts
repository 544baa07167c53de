import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useSyncExternalStore } from 'react';
import { useTheme } from '@/lib/theme';

/** Only the parts of Chart.js the result charts draw with (keeps the bundle small). */
ChartJS.register(
  ArcElement,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
);
ChartJS.defaults.font.family =
  "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans KR', sans-serif";
ChartJS.defaults.font.size = 12;

/**
 * Chart colours, per theme: the neutral greys of index.css for text and grid, the indigo accent for
 * response time, and status colours only where a series is a status (green success, red errors).
 */
export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  card: string;
  avg: string;
  p95: string;
  rps: string;
  errors: string;
  users: string;
  success: string;
  failure: string;
  bars: string[];
  /** Distinct hues for one line per API (categorical, so neighbours never look alike). */
  lines: string[];
  /** Iterations started each second, and the planned rate drawn against them (docs/adr/0027-load-profiles.md "8. Live and stored results"). */
  iterations: string;
  /** One line per flow's iterations each second, in the plan's order (none of the colours above). */
  flows: string[];
}

const LIGHT: ChartTheme = {
  text: '#16161d',
  muted: '#5f5f6c',
  grid: '#e3e3e9',
  card: '#ffffff',
  avg: '#4f46e5',
  p95: '#9333ea',
  rps: '#0891b2',
  errors: '#dc2626',
  users: '#64748b',
  success: '#16a34a',
  failure: '#dc2626',
  bars: ['#4f46e5', '#6366f1', '#818cf8', '#9333ea', '#0891b2', '#64748b'],
  lines: ['#4f46e5', '#0891b2', '#d97706', '#c026d3', '#0d9488', '#475569', '#ea580c', '#7c3aed'],
  iterations: '#ea580c',
  flows: ['#d97706', '#c026d3', '#0d9488', '#7c3aed', '#475569'],
};

const DARK: ChartTheme = {
  text: '#ececf1',
  muted: '#9d9dac',
  grid: '#27272f',
  card: '#141419',
  avg: '#818cf8',
  p95: '#c084fc',
  rps: '#22d3ee',
  errors: '#f87171',
  users: '#94a3b8',
  success: '#22c55e',
  failure: '#ef4444',
  bars: ['#818cf8', '#6366f1', '#a5b4fc', '#c084fc', '#22d3ee', '#94a3b8'],
  lines: ['#818cf8', '#22d3ee', '#fbbf24', '#e879f9', '#2dd4bf', '#cbd5e1', '#fb923c', '#a78bfa'],
  iterations: '#fb923c',
  flows: ['#fbbf24', '#e879f9', '#2dd4bf', '#a78bfa', '#cbd5e1'],
};

export function useChartTheme(): ChartTheme {
  return useTheme().resolvedTheme === 'dark' ? DARK : LIGHT;
}

/** Colour with alpha from a #rrggbb colour. */
export function alpha(color: string, opacity: number): string {
  const value = Number.parseInt(color.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${opacity})`;
}

/**
 * One measured series drawn as a filled line over time (x seconds): the look of the timeline charts.
 * Points are drawn while they are few (60 or fewer), else the line alone.
 */
export function areaDataset<P extends { x: number; y: number }>(label: string, data: P[], color: string) {
  return {
    label,
    data,
    borderColor: color,
    backgroundColor: alpha(color, 0.14),
    fill: true,
    borderWidth: 2,
    tension: 0.2,
    pointRadius: data.length > 60 ? 0 : 2,
  };
}

const subscribers = new Map<string, (listener: () => void) => () => void>();

/** One stable subscribe function per query, so useSyncExternalStore does not resubscribe each render. */
function subscribeMedia(query: string) {
  let subscribe = subscribers.get(query);
  if (!subscribe) {
    subscribe = (listener: () => void) => {
      const media = typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
      media?.addEventListener('change', listener);
      return () => media?.removeEventListener('change', listener);
    };
    subscribers.set(query, subscribe);
  }
  return subscribe;
}

/** Whether a CSS media query matches, following changes (false where matchMedia is missing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscribeMedia(query),
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false),
    () => false,
  );
}

/** Tailwind's md (768 px) and lg (1024 px) breakpoints, where the timeline grows (docs/reference/02-running.md §2). */
export type Breakpoint = 'narrow' | 'medium' | 'wide';

export function useBreakpoint(): Breakpoint {
  const medium = useMediaQuery('(min-width: 768px)');
  const wide = useMediaQuery('(min-width: 1024px)');
  return wide ? 'wide' : medium ? 'medium' : 'narrow';
}

/** A round axis maximum at or above `value`: 1, 2 or 5 × 10^n. */
export function niceMax(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}
