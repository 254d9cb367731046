/** The part of autocannon's API the serve bench uses (the package ships no types; @types/autocannon is not installed). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    /** Of `requests`: how many were answered in the whole run. */
    total?: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** The sequence of requests each connection loops over (the serve-tls bench's read mix). */
    requests?: { path: string }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
