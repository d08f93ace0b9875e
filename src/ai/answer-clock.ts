import { LLM_ANSWER_DEADLINE_MS, LLM_IDLE_TIMEOUT_MS } from './shared';

/** The model was silent too long, or the whole answer took too long. */
export class ModelTimeout extends Error {}
/** The asker went away (closed the page or the connection): nobody waits for the answer. */
export class AskerGone extends Error {}

export interface AnswerDeadlines {
  /** Longest silence from the model: before its response starts and between streamed chunks. */
  idleMs: number;
  /** The whole answer: every model round and tool call. */
  deadlineMs: number;
}

export const defaultDeadlines: AnswerDeadlines = { idleMs: LLM_IDLE_TIMEOUT_MS, deadlineMs: LLM_ANSWER_DEADLINE_MS };

/**
 * One answer's clock: its `signal` aborts the model calls when the asker goes away, when the total deadline
 * passes, or when the model has been silent for `idleMs` while a call is open. The reason is one of the
 * errors above.
 */
export class AnswerClock {
  private readonly controller = new AbortController();
  private readonly total: NodeJS.Timeout;
  private idle?: NodeJS.Timeout;
  private readonly onAskerGone = () => this.stop(new AskerGone('The asker went away.'));

  constructor(
    private readonly deadlines: AnswerDeadlines,
    private readonly asker?: AbortSignal,
  ) {
    this.total = setTimeout(
      () => this.stop(new ModelTimeout(`No complete answer within ${deadlines.deadlineMs} ms.`)),
      deadlines.deadlineMs,
    );
    if (asker?.aborted) this.onAskerGone();
    else asker?.addEventListener('abort', this.onAskerGone, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A model call starts or the model sent something: the idle countdown starts again. */
  heard(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(
      () => this.stop(new ModelTimeout(`The model was silent for ${this.deadlines.idleMs} ms.`)),
      this.deadlines.idleMs,
    );
  }

  /** No model call is open (tools are running): silence is not the model's. */
  callEnded(): void {
    clearTimeout(this.idle);
  }

  /** Throws why the answer was stopped, if it was. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }

  dispose(): void {
    clearTimeout(this.total);
    clearTimeout(this.idle);
    this.asker?.removeEventListener('abort', this.onAskerGone);
  }

  private stop(reason: Error): void {
    if (!this.signal.aborted) this.controller.abort(reason);
  }
}
