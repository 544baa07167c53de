import { Histogram } from './histogram';
import { ERROR_KIND_COUNT, MAX_ERROR_SAMPLES, type StepIntervalWire } from './types';

/**
 * One step's counters for the current interval, inside one worker. The scheduler swaps nothing:
 * it drains the counters into a wire object once a second and resets them, so the memory used is
 * fixed however many requests a run makes.
 */
export class StepCollector {
  readonly histogram = new Histogram();
  requests = 0;
  successes = 0;
  readonly errors = new Array<number>(ERROR_KIND_COUNT).fill(0);
  private samples: string[][] = emptySamples();
  /** Distinct messages already sent for this step, per kind (bounded by MAX_ERROR_SAMPLES). */
  private readonly seenSamples: Set<string>[] = Array.from({ length: ERROR_KIND_COUNT }, () => new Set());
  bytesSent = 0;
  bytesReceived = 0;

  /** A request that got a complete response (any status): its latency goes into the histogram. */
  recordResponse(latencyUs: number, bytesSent: number, bytesReceived: number): void {
    this.requests++;
    this.histogram.record(latencyUs);
    this.bytesSent += bytesSent;
    this.bytesReceived += bytesReceived;
  }

  /** Called after recordResponse, or alone for a request that got no response. */
  recordOutcome(errorKind: number, message: string | undefined): void {
    if (errorKind < 0) {
      this.successes++;
      return;
    }
    this.errors[errorKind]!++;
    if (message !== undefined) {
      const seen = this.seenSamples[errorKind]!;
      if (seen.size < MAX_ERROR_SAMPLES && !seen.has(message)) {
        seen.add(message);
        this.samples[errorKind]!.push(message);
      }
    }
  }

  /** Whether a message for this kind would still be kept (so callers can skip building it). */
  wantsSample(errorKind: number): boolean {
    return this.seenSamples[errorKind]!.size < MAX_ERROR_SAMPLES;
  }

  /** A request without a response (network error, time-out, cancelled): counted, no latency. */
  recordFailureNoResponse(bytesSent: number): void {
    this.requests++;
    this.bytesSent += bytesSent;
  }

  drain(): StepIntervalWire {
    const wire: StepIntervalWire = {
      requests: this.requests,
      successes: this.successes,
      errors: this.errors.slice(),
      samples: this.samples,
      bytesSent: this.bytesSent,
      bytesReceived: this.bytesReceived,
      histogram: this.histogram.encode(),
    };
    this.requests = 0;
    this.successes = 0;
    this.errors.fill(0);
    this.samples = emptySamples();
    this.bytesSent = 0;
    this.bytesReceived = 0;
    this.histogram.reset();
    return wire;
  }
}

function emptySamples(): string[][] {
  return Array.from({ length: ERROR_KIND_COUNT }, () => []);
}
