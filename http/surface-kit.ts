import { createPipeline, type RequestObserver, type RequestPipeline } from './pipeline.ts';
import { openRecording, type RecordErrors, type Recording } from './recording.ts';
import { createRedactor, learningObserver, type Redactor, type RunSecrets } from './redaction.ts';

// One kit assembles what watches a surface's traffic, for the mock and the proxy alike (decision
// 160): the one redactor, the recording, and the pipeline of observers in a fixed order. The kit
// knows nothing of judges, journals or stores: a surface hands them in as observers.

/** What a surface records, when it records. */
export interface SurfaceRecording {
  /** The HAR file (locked to this process; continued when pacu wrote it). */
  readonly file: string;
  /** What a request's path was sent under: the upstream's origin and root, the mock's origin. */
  readonly origin: () => string;
  /** When a write fails: go on serving (the default), or stop. */
  readonly onError?: RecordErrors;
}

/** What {@link openSurfaceKit} assembles. */
export interface SurfaceKitOptions {
  /** `pacu proxy`, `pacu mock`: log lines start with it, and the recording's lock names it. */
  readonly surface: string;
  /** The redaction policy: the run's secrets, a team's names of credentials, card data kept or masked. */
  readonly redaction?: RunSecrets;
  /**
   * The surface's redactor, made already by {@link createSurfaceRedactor} (the mock's store needs
   * it before the kit opens, for the journal it keeps); else the kit makes one from `redaction`.
   */
  readonly redactor?: Redactor;
  readonly record?: SurfaceRecording | undefined;
  /** The surface's own watchers (a judge, the journal, coverage), made with the kit's one redactor. */
  readonly observers?: (redactor: Redactor) => readonly RequestObserver[];
  /** The options' own watchers, told last. */
  readonly extra?: readonly RequestObserver[];
  /** Whether a watcher reads answers (a judge does; a journal does not): the redactor learns from them then. A recording always does. @default true */
  readonly readsAnswers?: boolean;
  readonly log: (line: string) => void;
}

/** A surface's redactor, recording and pipeline, with one close. */
export interface SurfaceKit {
  readonly redactor: Redactor;
  readonly recording: Recording | undefined;
  readonly pipeline: RequestPipeline;
  /** The surface's log through the redactor: no line leaves with a credential in it. */
  readonly log: (line: string) => void;
  /** Resolves with why when the surface must stop on its own (a recording that failed, `onError: 'stop'`). */
  readonly halted: Promise<Error>;
  /** Drain the pipeline, then close every observer (the recording last writes and lets its lock go). */
  close(): Promise<void>;
}

/** A surface's one redactor, by its policy: what {@link openSurfaceKit} makes when given none. */
export function createSurfaceRedactor(policy: RunSecrets): Redactor {
  return createRedactor(policy);
}

/**
 * Assemble a surface's watchers in the fixed order: the redactor's learning (every later reader
 * redacts what an exchange taught it), the recording, the surface's observers, the options' own.
 *
 * @example
 * const kit = openSurfaceKit({ surface: 'pacu proxy', redaction: {}, record: { file: 'x.har', origin: () => base }, log });
 * kit.pipeline.end(event, release);
 */
export function openSurfaceKit(options: SurfaceKitOptions): SurfaceKit {
  const redactor = options.redactor ?? createSurfaceRedactor(options.redaction ?? {});
  const log = (line: string): void => options.log(redactor.redactText(line));
  let halt: (error: Error) => void = () => {};
  const halted = new Promise<Error>((resolve) => {
    halt = resolve;
  });
  const recording = options.record
    ? openRecording({
        file: options.record.file,
        redactor,
        origin: options.record.origin,
        surface: options.surface,
        onError: options.record.onError ?? 'serve',
        log,
        stop: (error) => halt(error),
      })
    : undefined;
  try {
    const own = options.observers?.(redactor) ?? [];
    const pipeline = createPipeline(
      [
        learningObserver(redactor, recording !== undefined || (options.readsAnswers ?? true)),
        ...(recording ? [recording] : []),
        ...own,
        ...(options.extra ?? []),
      ],
      log,
    );
    return { redactor, recording, pipeline, log, halted, close: () => pipeline.close() };
  } catch (error) {
    void recording?.close();
    throw error;
  }
}
