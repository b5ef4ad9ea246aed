import { describe, expect, it } from 'vitest';
import { deviceId, deviceLabel, isDeviceId } from '../../server/auth/devices.ts';
import { apiV1 } from '../../server/http/app.ts';
import { openApiDocument } from '../../server/http/openapi.ts';
import type { AppServices } from '../../server/services.ts';

/** The app's tokens (decision 074): what the document says of them, and how devices are named. */

type Operation = { tags?: string[]; security?: Array<Record<string, string[]>>; parameters?: Array<{ name: string; schema: { type: string } }> };
const document = openApiDocument(apiV1({} as AppServices, () => '').routes) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};

describe('the OpenAPI document and the app’s token', () => {
  it('declares the bearer token as an http bearer scheme beside the session cookie', () => {
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });

  it('lets every signed-in operation take either, and the sign-in operations neither', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
    // The desk's operations take an admin's site session only, never an app token (decision 120).
    const desk = operations.filter(({ operation }) => operation.tags?.includes('Desk'));
    expect(desk.length).toBeGreaterThan(0);
    for (const { path, operation } of desk) expect(operation.security, path).toEqual([{ sessionCookie: [] }]);
    const signedIn = operations.filter(({ operation }) => (operation.security ?? []).length > 0 && !operation.tags?.includes('Desk'));
    expect(signedIn.length).toBeGreaterThan(10);
    for (const { operation } of signedIn) expect(operation.security).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
    for (const path of ['/auth/sign-up', '/auth/sign-in', '/auth/google', '/auth/verify-email']) expect(document.paths[path]?.post?.security, path).toEqual([]);
    expect(document.paths['/auth/sign-out']?.post?.security).toHaveLength(2);
    expect(document.paths['/me/devices']?.get?.security).toHaveLength(2);
    expect(document.paths['/me/devices/{id}']?.delete?.parameters?.[0]).toMatchObject({ name: 'id', schema: { type: 'string' } });
  });
});

describe('devices', () => {
  it('are named by an opaque id that depends on the secret and is not the session id', () => {
    const id = deviceId('secret-one', 'b1c2-session');
    expect(isDeviceId(id)).toBe(true);
    expect(id).not.toContain('b1c2');
    expect(deviceId('secret-two', 'b1c2-session')).not.toBe(id);
    for (const bad of ['', '1', 'x'.repeat(23), 'AAAAAAAAAAAAAAAAAAAA/A', '../../etc/passwd']) expect(isDeviceId(bad)).toBe(false);
  });

  it('are labelled from the user agent', () => {
    expect(deviceLabel('app', 'okhttp/4.12.0')).toBe('Android app');
    expect(deviceLabel('site', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe(
      'Chrome on Android',
    );
    expect(
      deviceLabel(
        'site',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone');
    expect(deviceLabel('site', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0')).toBe(
      'Edge on Windows',
    );
    expect(deviceLabel('site', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0')).toBe('Firefox on Mac');
    expect(deviceLabel('site', null)).toBe('A web browser');
  });
});
