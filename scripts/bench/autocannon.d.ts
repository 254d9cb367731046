/** The part of autocannon's API the serve bench uses (the package ships no types; @types/autocannon is not installed). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p99: number;
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
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
