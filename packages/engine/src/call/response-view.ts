import { DOMParser } from '@xmldom/xmldom';

/*
 * The one view of a response that every caller judges and captures from (docs/call-core.md): its status,
 * headers, body text, size and time, and its body read as JSON or as XML at most once per call
 * (docs/design.md §9): the call's json_path rules, schema rule and json_path captures share one JSON
 * reading, its xpath rules one XML reading. Each reading is kept against the response object handed to
 * every rule and capture of the call, and goes with it.
 */

/** One response as the call core reads it; a judge is handed null when nothing came back. */
export interface ResponseView {
  status: number;
  /** Lowercased names. */
  headers: Readonly<Record<string, string>>;
  /**
   * The header lines as received, `Name: value` with the sender's spelling of each name, one a line:
   * what a `headers` subject searches. Left out, the lines are written from `headers`.
   */
  headerLines?: string;
  /** The body as read (possibly only its start: see `sizeBytes`). */
  body: string;
  /** The body's full size in bytes. */
  sizeBytes: number;
  /** From sending the request to the last byte. */
  timeMs: number;
}

/** The body as a document, or why it is not XML: no root element, tags that do not close. */
export type XmlReading = { document: Node } | { notXml: string };

interface Readings {
  json?: { json: unknown } | null;
  xml?: XmlReading;
}

const readings = new WeakMap<object, Readings>();

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A ResponseView one virtual user reuses for every answer (the load executor's hot path,
 * docs/performance.md): `reset` allocates nothing, the body is decoded on first use, and its JSON and
 * XML readings are kept in the view itself until the next reset. The load executor reads no headers,
 * size or time through it.
 */
export class ReusedResponseView implements ResponseView {
  status = 0;
  readonly headers = NO_HEADERS;
  sizeBytes = 0;
  timeMs = 0;
  /** This answer's readings (bodyJson, bodyXml), cleared by reset. */
  readonly readings: Readings = {};
  private bytes: Buffer | undefined;
  private text: string | undefined;

  reset(status: number, body: Buffer | undefined): void {
    this.status = status;
    this.bytes = body;
    this.sizeBytes = body?.length ?? 0;
    this.text = undefined;
    this.readings.json = undefined;
    this.readings.xml = undefined;
  }

  get body(): string {
    this.text ??= this.bytes === undefined ? '' : this.bytes.toString('utf8');
    return this.text;
  }
}

function of(response: { body: string }): Readings {
  if (response instanceof ReusedResponseView) return response.readings;
  let read = readings.get(response);
  if (read === undefined) {
    read = {};
    readings.set(response, read);
  }
  return read;
}

/** The body parsed as JSON, or null when it is not JSON. */
export function bodyJson(response: { body: string }): { json: unknown } | null {
  const read = of(response);
  if (read.json === undefined) {
    try {
      read.json = { json: JSON.parse(response.body) as unknown };
    } catch {
      read.json = null;
    }
  }
  return read.json;
}

/**
 * The body read as an XML document. @xmldom/xmldom reads no external entity or DTD file, so a body
 * cannot make the runner open a file or a URL.
 */
export function bodyXml(response: { body: string }): XmlReading {
  const read = of(response);
  read.xml ??= readXml(response.body);
  return read.xml;
}

function readXml(body: string): XmlReading {
  let fatal: string | undefined;
  // xmldom throws after reporting a fatal error; warnings and recoverable errors (an unknown entity)
  // are left as it reads them.
  const onError = (level: 'warning' | 'error' | 'fatalError', message: string): void => {
    if (level === 'fatalError') fatal ??= message;
  };
  let document: Node;
  try {
    document = new DOMParser({ onError }).parseFromString(body, 'text/xml') as unknown as Node;
  } catch (error) {
    return { notXml: fatal ?? firstLine(error) };
  }
  return fatal === undefined ? { document } : { notXml: fatal };
}

/** An error's first line, trimmed. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}
