import { JMETER_ERROR_BODY_VARIABLE } from '@aqa/converters';
import { httpErrorSample } from '../executor/http-error';
import type { ErrorKind } from '../metrics/types';
import { CsvStream, headerIndex } from './csv';
import type { ToolSample } from './samples';
import type { StepMatcher } from './steps';

/**
 * JMeter's CSV results (JTL), as `jmeter -l out.jtl` writes them with field names, and as Taurus
 * writes its kpi.jtl: one row per sample. Columns are found by name, so any set and order of the
 * save-service fields works; timeStamp (ms since the epoch, the sample's start — JMeter's default
 * `sampleresult.timestamp.start=true`), elapsed and label are required.
 */

/** Why a failed JMeter sample failed, from its response code and message. */
export function jmeterErrorKind(code: string, message: string): ErrorKind {
  const status = /^\d{3}$/.test(code) ? Number(code) : NaN;
  if (status >= 400) return 'http_status';
  const text = `${code} ${message}`;
  if (/UnknownHost|NoRouteToHost.*resolve|Name or service not known|nodename nor servname/i.test(text))
    return 'dns';
  if (/SocketTimeout|ConnectTimeout|timed out|timeout|lasted too long/i.test(text)) return 'timeout';
  if (/SSL|TLS|certificate|handshake/i.test(text)) return 'tls';
  if (
    /Connect(ion)?Exception|Connection refused|NoRouteToHost|Connection reset|NoHttpResponse|BindException/i.test(
      text,
    )
  )
    return 'connect';
  if (!Number.isNaN(status)) return 'assertion'; // a response came and an assertion failed it
  return 'other';
}

export interface JtlReaderOptions {
  /** Timestamps are the sample's end rather than its start (`sampleresult.timestamp.start=false`). */
  timestampIsEnd?: boolean;
}

/** Reads JTL rows incrementally (as the file grows) into samples. */
export class JtlReader {
  private readonly csv = new CsvStream();
  private columns: Map<string, number> | undefined;
  /** Rows that could not be read (bad numbers, missing columns). */
  badRows = 0;
  /** Header fields seen, for notes (e.g. whether sentBytes is there). */
  fields: string[] = [];

  constructor(
    private readonly steps: StepMatcher,
    private readonly options: JtlReaderOptions = {},
  ) {}

  feed(text: string): ToolSample[] {
    return this.rows(this.csv.feed(text));
  }

  /** The last row when the file did not end with a newline. */
  end(): ToolSample[] {
    return this.rows(this.csv.end());
  }

  private rows(rows: string[][]): ToolSample[] {
    const out: ToolSample[] = [];
    for (const row of rows) {
      if (!this.columns) {
        if (row[0]?.trim() !== 'timeStamp')
          throw new Error('JTL has no header row (jmeter.save.saveservice.print_field_names=true)');
        this.fields = row.map((f) => f.trim());
        this.columns = headerIndex(row);
        continue;
      }
      const s = this.sample(row, this.columns);
      if (s) out.push(s);
      else this.badRows++;
    }
    return out;
  }

  private sample(row: string[], c: Map<string, number>): ToolSample | undefined {
    const get = (name: string): string | undefined => {
      const i = c.get(name);
      return i === undefined ? undefined : row[i];
    };
    const ts = Number(get('timeStamp'));
    const elapsed = Number(get('elapsed'));
    const label = get('label');
    if (!Number.isFinite(ts) || !Number.isFinite(elapsed) || label === undefined) return undefined;
    const code = get('responseCode') ?? '';
    const successText = get('success');
    const status = /^\d{3}$/.test(code) ? Number(code) : NaN;
    const ok = successText !== undefined ? successText.trim() === 'true' : status < 400;
    const responseMessage = get('responseMessage') ?? '';
    const failureMessage = get('failureMessage') ?? '';
    const num = (name: string): number => {
      const v = Number(get(name));
      return Number.isFinite(v) ? v : 0;
    };
    const threads = get('allThreads') ?? get('grpThreads');
    const sample: ToolSample = {
      step: this.steps.match(label),
      label,
      startMs: this.options.timestampIsEnd ? ts - elapsed : ts,
      elapsedMs: elapsed,
      ok,
      bytesSent: num('sentBytes'),
      bytesReceived: num('bytes'),
    };
    if (threads !== undefined && threads !== '' && Number.isFinite(Number(threads)))
      sample.activeUsers = Number(threads);
    if (!ok) {
      const kind = jmeterErrorKind(code, `${responseMessage} ${failureMessage}`);
      sample.kind = kind;
      sample.message =
        kind === 'assertion' && failureMessage
          ? failureMessage
          : kind === 'http_status'
            ? // Status, reason and the start of the body (the run's JMX records it; Taurus's kpi.jtl has none).
              httpErrorSample(status, responseMessage, get(JMETER_ERROR_BODY_VARIABLE))
            : failureMessage || `${code} ${responseMessage}`.trim();
    }
    return sample;
  }
}
