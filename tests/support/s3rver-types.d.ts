/** The part of s3rver 3.7 (which ships no types) that tests/support/s3rver.ts uses. */
declare module 's3rver' {
  type Options = {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    configureBuckets?: Array<{ name: string }>;
  };
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
