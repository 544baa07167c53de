import { describe, expect, it } from 'vitest';
import { containsPattern } from '../../../repositories/dashboard.repository';
import { csvText, renderCsvReport } from './csv-report';
import { escapeHtml } from './escape';
import { slugOf } from './report.service';
import { barChart, lineChart, niceCeiling } from './svg-charts';

describe('report text', () => {
  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('quotes CSV text that needs it and defuses spreadsheet formulas', () => {
    expect(csvText('List items')).toBe('List items');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvText('-1+2')).toBe("'-1+2");
  });

  it('writes no API section rows when there are no steps', () => {
    const csv = renderCsvReport({
      test_id: 'run_1',
      series: [],
      api_series: [],
      distribution: [],
      distribution_fitted: [],
    });
    expect(csv.split('\r\n')).toEqual([
      'second,active_users,requests,requests_per_second,errors,error_rate,avg_ms,p50_ms,p90_ms,p95_ms,p99_ms,max_ms,bandwidth_kbs',
      '',
      'api_index,api_name,method,url,second,requests_per_second,error_rate,avg_ms,p95_ms',
      '',
    ]);
  });

  it('rounds every figure as the result screen shows it (docs/reference/02-running.md §3 "CSV export")', () => {
    const csv = renderCsvReport({
      test_id: 'run_1',
      series: [
        {
          second: 1,
          active_users: 2,
          requests: 123,
          requests_per_second: 123.456,
          errors: 1,
          error_rate: 0.813,
          avg: 4.5678,
          p50: 3.005,
          p90: 12.345,
          p95: 45.55,
          p99: 98.76,
          max: 104.56,
          bandwidth_kbs: 12.3456,
        },
      ],
      api_series: [
        {
          index: 0,
          name: 'List',
          method: 'GET',
          url: 'http://shop.test/items',
          points: [{ second: 1, requests_per_second: 61.728, error_rate: 12.345, avg: 4.5678, p95: 150.5 }],
        },
      ],
      distribution: [],
      distribution_fitted: [],
    });
    expect(csv.split('\r\n')).toEqual([
      'second,active_users,requests,requests_per_second,errors,error_rate,avg_ms,p50_ms,p90_ms,p95_ms,p99_ms,max_ms,bandwidth_kbs',
      '1,2,123,123,1,0.81,4.57,3.01,12.3,45.6,98.8,105,12.3',
      '',
      'api_index,api_name,method,url,second,requests_per_second,error_rate,avg_ms,p95_ms',
      '0,List,GET,http://shop.test/items,1,61.7,12.3,4.57,151',
      '',
    ]);
  });

  it('makes file-name-safe slugs of plan names', () => {
    expect(slugOf('Shop <API> & "Co"')).toBe('shop-api-co');
    expect(slugOf('Café Übung 2')).toBe('cafe-ubung-2');
    expect(slugOf('결제 테스트')).toBe('run');
    expect(slugOf('x'.repeat(100))).toHaveLength(60);
  });

  it('takes % and _ of a search literally', () => {
    expect(containsPattern('100%_off')).toBe('%100\\%\\_off%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });
});

describe('svg charts', () => {
  it('rounds the axis up to a readable number', () => {
    expect([0, 0.3, 7, 38, 120, 555].map(niceCeiling)).toEqual([1, 0.5, 10, 50, 200, 1000]);
  });

  it('draws the series and escapes names; says so when there is nothing to draw', () => {
    const svg = lineChart({
      title: 'Latency <ms>',
      unit: 'ms',
      xLabel: 'Second',
      series: [
        {
          name: 'p95 & co',
          color: '#123456',
          points: [
            { x: 1, y: 10 },
            { x: 2, y: 20 },
          ],
        },
      ],
    });
    expect(svg).toContain('<polyline points="');
    expect(svg).toContain('Latency &lt;ms&gt;');
    expect(svg).toContain('p95 &amp; co');
    expect(lineChart({ title: 'Empty', unit: 'ms', xLabel: 's', series: [] })).toContain(
      'No data was recorded for this chart',
    );
    expect(
      barChart({ title: 'Bins', unit: 'n', color: '#000', bars: [{ label: '0-100ms', value: 3 }] }),
    ).toContain('<rect');
  });
});
