import { ImportError } from '../import-model';
import { type ImportSource, readStructured, sourceText } from '../read-document';
import { looksLikePlaywright, readPlaywrightScript } from './playwright';
import {
  RECORDING_FILE,
  type RecordingFormat,
  type RecordingRead,
  RECORDING_FORMATS,
  RECORDING_NAMES,
} from './recording-model';
import { isChromeRecording, readChromeRecording } from './chrome-recorder';
import { isSeleniumIdeProject, readSeleniumIdeProject } from './selenium-ide';

/*
 * One entry for every browser recording (docs/adr/0030-recorded-ui-tests.md §3): the format told by the
 * content (or named by the caller), read into a UI plan. A file that is no recording answers undefined
 * when no format was named, so the other importers can read it.
 */

export interface RecordingOptions {
  /** "selenium-ide" or "chrome-recorder"; detected when absent. */
  format?: string | undefined;
  /** Replaces the recording's base URL (Selenium IDE's project `url`). */
  baseUrl?: string | undefined;
}

export function isRecordingFormat(format: string | undefined): format is RecordingFormat {
  return (RECORDING_FORMATS as readonly string[]).includes(format ?? '');
}

/** What kind of recording a parsed document is, or undefined. */
export function recordingFormatOf(doc: unknown): RecordingFormat | undefined {
  if (isSeleniumIdeProject(doc)) return 'selenium-ide';
  if (isChromeRecording(doc)) return 'chrome-recorder';
  return undefined;
}

export function readRecording(
  source: ImportSource,
  options: RecordingOptions = {},
): RecordingRead | undefined {
  const named = options.format?.trim().toLowerCase();
  if (named !== undefined && named !== '' && !isRecordingFormat(named)) return undefined;
  let detected: RecordingFormat | undefined;
  try {
    // A codegen script is JavaScript, which the structured reader would take for YAML text.
    detected = looksLikePlaywright(sourceText(source))
      ? 'playwright'
      : recordingFormatOf(readStructured(source).value);
  } catch (error) {
    // Unreadable text is the named reader's to refuse, or the other importers' when none was named.
    if (named === undefined || named === '') return undefined;
    throw error;
  }
  const format = isRecordingFormat(named) ? named : detected;
  if (format === undefined) return undefined;
  if (detected !== format) {
    throw new ImportError(
      source.name ?? 'the uploaded file',
      `this is not a ${RECORDING_NAMES[format]} ${RECORDING_FILE[format]}${detected ? `: it is a ${RECORDING_NAMES[detected]} one` : ''}`,
    );
  }
  switch (format) {
    case 'selenium-ide':
      return readSeleniumIdeProject(source, { baseUrl: options.baseUrl });
    case 'chrome-recorder':
      return readChromeRecording(source);
    case 'playwright':
      return readPlaywrightScript(source);
  }
}
