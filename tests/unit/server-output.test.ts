import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../../server/logger.ts';
import { servedUrl } from '../../server/http/served-url.ts';

describe('the ready line’s address', () => {
  it('is SITE_ORIGIN when set', () => {
    expect(servedUrl('https://www.example.in/', '0.0.0.0', 3000)).toBe('https://www.example.in');
  });
  it('is the bound address otherwise; a wildcard bind is reachable as localhost', () => {
    expect(servedUrl(undefined, '0.0.0.0', 4101)).toBe('http://localhost:4101');
    expect(servedUrl('', '::', 4101)).toBe('http://localhost:4101');
    expect(servedUrl(undefined, '192.168.1.20', 3000)).toBe('http://192.168.1.20:3000');
    expect(servedUrl(undefined, '::1', 3000)).toBe('http://[::1]:3000');
  });
});

describe('readable log lines (demo)', () => {
  it('shows time, level, message and fields', () => {
    const line = formatLogLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5), msg: 'demo inventory loaded', categories: 6, vehicles: 53 }));
    expect(line).toBe('03:04:05 INFO  demo inventory loaded  categories=6 vehicles=53');
  });
  it('puts an error’s stack below the line', () => {
    const line = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' } }));
    expect(line).toBe('00:00:00 ERROR failed\nError: boom\n    at x');
  });
  it('passes a line that is not JSON through unchanged', () => {
    expect(formatLogLine('plain text')).toBe('plain text');
  });
});
