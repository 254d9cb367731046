import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How a drain ended: every request answered, or the timeout cut the ones left. */
export interface DrainOutcome {
  /** Requests still unanswered when the timeout cut their connections (0 after a clean drain). */
  cut: number;
}

/** How a replica stops: how long it stays in rotation after the signal, and how long requests get. */
export interface DrainTiming {
  /**
   * ms during which `/readyz` answers 503 while connections are still accepted and answered (each with
   * `connection: close`), so a load balancer polling readiness takes the replica out before it stops
   * listening (0: stop listening at once).
   */
  delayMs: number;
  /** ms the requests in flight get to finish once the server stops listening; then they are cut. */
  timeoutMs: number;
}

/**
 * The life of a replica behind a load balancer (docs/decisions/0140): ready from the start (a server
 * exists only once its history is loaded), draining from the stop signal on. While draining, `/readyz`
 * is 503, every answer carries `connection: close` (keep-alive clients reconnect, through the load
 * balancer, elsewhere), and a connection is closed as soon as it has no request in flight.
 */
export class ReplicaLifecycle {
  #draining = false;
  readonly #inFlight = new Set<ServerResponse>();
  #server: Server | undefined;
  /** Set once listening has stopped. */
  #stopped = false;
  #drained: Promise<DrainOutcome> | undefined;
  #cutNow: (() => void) | undefined;

  /** Whether the replica is draining (`/readyz` is then 503). */
  get draining(): boolean {
    return this.#draining;
  }

  /** Counts a request in flight until its answer is done; once draining, its connection ends with it. */
  track(_req: IncomingMessage, res: ServerResponse): void {
    this.#inFlight.add(res);
    if (this.#draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      this.#inFlight.delete(res);
      // Once listening has stopped, a kept-alive connection is closed as soon as its answer is out; during
      // the delay the others stay open (closing one as its client sends on it would lose that request).
      if (this.#stopped) setImmediate(() => this.#server?.closeIdleConnections());
    });
  }

  /**
   * Drains `server`: readiness off at once, stops listening after `delayMs`, closes idle connections,
   * lets requests in flight finish, and cuts what is left after `timeoutMs`. Resolves once the server
   * is closed, with how many requests were cut. Called again (a second signal), it cuts at once and
   * resolves with the first call.
   */
  drain(server: Server, timing: DrainTiming): Promise<DrainOutcome> {
    if (this.#drained) {
      this.#cutNow?.();
      return this.#drained;
    }
    this.#draining = true;
    this.#server = server;
    for (const res of this.#inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    this.#drained = new Promise((done) => {
      let cut = 0;
      let delay: NodeJS.Timeout | undefined;
      let deadline: NodeJS.Timeout | undefined;
      let listening = true;
      const stopListening = () => {
        if (!listening) return;
        listening = false;
        this.#stopped = true;
        clearTimeout(delay);
        server.close(() => {
          clearTimeout(deadline);
          done({ cut });
        });
        server.closeIdleConnections();
      };
      this.#cutNow = () => {
        stopListening();
        cut = this.#inFlight.size;
        server.closeAllConnections();
      };
      const stop = () => {
        stopListening();
        deadline = setTimeout(() => this.#cutNow?.(), timing.timeoutMs);
      };
      if (timing.delayMs > 0) delay = setTimeout(stop, timing.delayMs);
      else stop();
    });
    return this.#drained;
  }
}
