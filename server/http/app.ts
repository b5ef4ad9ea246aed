import { fileURLToPath } from 'node:url';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { appContext, type AppServices } from '../services.ts';
import { refuseControlCharactersInJson } from './forms.ts';
import { isBotAction } from '../security/bot-check.ts';
import { addressKey, clientAddress, consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { answerOutagesWith503, failedForOutage, outageResponse, pageLostConnection, type OutageVariables } from './database-outage.ts';
import { bodyTimeoutMessage, bodyLimit, BodyTimeoutError, BodyTooLargeError, tooLargeMessage } from './body-limit.ts';
import { clearPageCacheAfterAdminChange } from './admin-change.ts';
import { compressResponses } from './compression.ts';
import { personalAnswersUncached } from './document-caching.ts';
import { csrfProtection } from './csrf.ts';
import { refuseBearerOutsideApi } from './bearer-scope.ts';
import { maintenanceMode } from './maintenance.ts';
import { apiDocs } from './api-docs.ts';
import { describeRoute, openApiDocument } from './openapi.ts';
import { openApiDocumentSchema } from './api-answers.ts';
import { edgeRefusal, problem } from './problem.ts';
import { SERVICE_WORKER_PATH } from '../../app/lib/offline.ts';
import { withoutTracking } from '../../app/lib/page-query.ts';
import { HINDI_PREFIX, languageOfPath } from '../../app/lib/i18n/language.ts';
import { answerInRequestLanguage, sendHindiReadersToHindiPages } from './language-choice.ts';
import { apiEdgeText as t } from '../../app/lib/i18n/apiEdge.ts';
import { paymentPagesAsDocuments, securityHeaders, securityOptionsOf, type SecurityVariables } from './security.ts';
// Each domain's HTTP adapters, mounted here and nowhere else in the edge (decision 058).
import { accountsApi } from '../accounts/http/api-accounts.ts';
import { profileApi } from '../accounts/http/api-profile.ts';
import { wishlistApi } from '../accounts/http/api-wishlist.ts';
import { pushApi } from '../notify/http/api-push.ts';
import { authApi } from '../auth/http/api-auth.ts';
import { authRoutes } from '../auth/http/auth-routes.ts';
import { catalogApi } from '../catalog/http/api-catalog.ts';
import { carModelsApi } from '../catalog/http/api-car-models.ts';
import { compareAndEmiApi } from '../catalog/http/api-compare-emi.ts';
import { leadsApi } from '../leads/http/api-leads.ts';
import { mediaHandler } from '../media/http/media.ts';
import { siteCardHandler } from '../media/site-card.ts';
import { SITE_CARD_PATH } from '../../app/lib/share-image.ts';
import { apiLicence } from '../rentals/http/api-licence.ts';
import { rentalQuoteAndPayApi } from '../rentals/http/api-rental-quote-pay.ts';
import { rentalApi } from '../rentals/http/api-rentals.ts';
import { OLD_PAYMENT_WEBHOOK_PATH, PAYMENT_WEBHOOK_PATH, paymentWebhook, paymentWebhookApi } from '../payments/http/payment-webhook.ts';
import { paymentSandboxRoutes, SANDBOX_BASE } from '../payments/sandbox.ts';
import { whatsappWebhook } from '../notify/http/whatsapp-webhook.ts';
import { WHATSAPP_WEBHOOK_PATH } from '../notify/whatsapp-graph.ts';
import { testDriveApi } from '../test-drives/http/api-test-drives.ts';
import { reservationApi } from '../reservations/http/api-reservations.ts';
import { documentsApi } from '../documents/http/api-documents.ts';
import { deskSalesApi } from '../sales/http/api-desk-sales.ts';
import { purchasesApi } from '../sales/http/api-purchases.ts';
import { sellEstimateApi } from '../leads/http/api-sell-estimates.ts';
import { inspectionApi } from '../inspections/http/api-inspections.ts';

type Env = { Variables: SecurityVariables & OutageVariables };

/** Liveness: 200 while the process runs, from the first moment it listens (server-entry.ts answers it while starting). */
export const LIVENESS_PATH = '/healthz';

/**
 * The whole HTTP surface: health check, media, built assets, the Android app's JSON API and
 * the React Router pages, in that order of precedence.
 */
/**
 * `mode` is `development` only under `npm run dev` (scripts/dev.mjs), where Vite serves the
 * browser's modules and public/, and an unexpected error shows its stack on the page.
 */
export function createApp(services: AppServices, build: ServerBuild, mode: 'production' | 'development' = 'production') {
  const { config, logger } = services;
  const app = new Hono<Env>();
  const clientDir = fileURLToPath(new URL('../client', import.meta.url));
  // The visitor's address as rate limits key it: X-Forwarded-For only behind our own proxy,
  // and IPv6 by its /64 (one phone can hold a whole block).
  const resolvedAddress = (c: Context) => clientAddress(c.req.raw.headers, getConnInfo(c).remote.address, config.trustProxy);
  const requestAddress = (c: Context) => addressKey(resolvedAddress(c));
  // React Router's production mode outside `npm run dev`: its development mode puts an unexpected
  // error's message and stack (file paths, driver internals) into the page, and demo sites are public.
  // Hindi pages are the same app under the basename /hi (decision 087): React Router matches,
  // links and redirects there without the prefix, so no route is written twice.
  // React Router checks a form's Origin against the request's own; a loopback site accepts each of
  // loopback's names (decision 089), which csrf.ts has already checked, so React Router takes them too.
  const pageBuild: ServerBuild = { ...build, allowedActionOrigins: config.acceptedOrigins.map((origin) => new URL(origin).host) };
  const pageHandlers = { en: createRequestHandler(pageBuild, mode), hi: createRequestHandler({ ...pageBuild, basename: HINDI_PREFIX }, mode) };

  app.onError((error, c) => {
    // A chunked body cut off at the edge limit (server/http/body-limit.ts) under a handler that is not a form action.
    const tooLarge = error instanceof BodyTooLargeError ? error : error.cause instanceof BodyTooLargeError ? error.cause : null;
    if (tooLarge) {
      const message = tooLargeMessage(tooLarge.maxBytes);
      return edgeRefusal(c, 413, message, {}, () => c.text(message, 413));
    }
    if (error instanceof BodyTimeoutError || error.cause instanceof BodyTimeoutError) {
      return edgeRefusal(c, 408, bodyTimeoutMessage(), { Connection: 'close' }, () => c.text(bodyTimeoutMessage(), 408, { Connection: 'close' }));
    }
    return failedForOutage(c, services, error).then((outage) => {
      if (outage) return outageResponse(c, services);
      logger.error({ err: error, path: c.req.path }, 'unhandled error');
      const message = t('unexpected');
      return edgeRefusal(c, 500, message, {}, () => c.text(message, 500));
    });
  });

  // First, so every response (health check, media, assets and errors too) carries them.
  app.use(securityHeaders(securityOptionsOf(config)));
  // Everything read while answering speaks the request's language.
  app.use(answerInRequestLanguage());
  // A page that failed while the database does not answer says so (503), not "something went wrong".
  app.use(answerOutagesWith503(services));
  // Before anything else may read a body.
  app.use(bodyLimit({ idleMs: config.bodyIdleTimeoutMs }));

  // Liveness only: no database query, so an outage never has the instance restarted (readiness is /readyz, server-entry.ts).
  app.get(LIVENESS_PATH, (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));

  app.get('/media/*', mediaHandler(services.storage, services.logger));
  app.get(SITE_CARD_PATH, siteCardHandler(config.siteName));

  if (mode === 'production') {
    // Hashed build output never changes under its name; everything else in public/ may.
    app.use(
      '/assets/*',
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    );

    // A missing build file is a plain 404, not the HTML not-found page.
    app.get('/assets/*', (c) => c.text('Not found', 404));
  }

  app.use(compressResponses());
  const bearerOutsideApi = refuseBearerOutsideApi();

  // Signed by Razorpay (HMAC of the body), not by a browser: before the CSRF check.
  const webhook = paymentWebhook(services);
  app.post(PAYMENT_WEBHOOK_PATH, webhook);
  // The address Razorpay's dashboard may still be set to (decision 106): the same handler.
  app.post(OLD_PAYMENT_WEBHOOK_PATH, webhook);
  // Signed by Meta (HMAC of the body) too, and checked with a verify token (decision 125): before the CSRF check.
  const whatsapp = whatsappWebhook(services, requestAddress);
  app.get(WHATSAPP_WEBHOOK_PATH, whatsapp.verify);
  app.post(WHATSAPP_WEBHOOK_PATH, whatsapp.receive);
  // The demo's payment sandbox (decision 095), only when it is on: Razorpay's API is called server
  // to server with its keys, so it too comes before the CSRF check; it posts its webhooks to the one above.
  if (services.paymentSandbox) app.route(SANDBOX_BASE, paymentSandboxRoutes(services.paymentSandbox, PAYMENT_WEBHOOK_PATH));
  // A bearer token outside /api/v1 is refused before anything reads a session (decision 074).
  // The bot check's challenge reads none, and the app asks for it with its token on.
  app.use('*', (c, next) => (c.req.path === '/api/bot-check/challenge' ? next() : bearerOutsideApi(c, next)));
  app.use(csrfProtection(config.acceptedOrigins));
  app.use(maintenanceMode(services));
  app.route('/api/auth', authRoutes(services, requestAddress, resolvedAddress));
  app.get('/api/bot-check/challenge', async (c) => {
    const action = c.req.query('action');
    if (!isBotAction(action)) return problem(c, 400, t('unknownAction'), { fields: { action: t('unknownAction') } });
    const limit = await consumeRateLimit(services.database, {
      key: `bot-challenge:${requestAddress(c)}`,
      ...rateLimits.botChallenge,
      now: services.clock.now(),
    });
    if (!limit.allowed) return problem(c, 429, t('tooManyRequests'), { headers: { 'Retry-After': String(limit.retryAfterSeconds) } });
    return c.json(await services.botCheck.challenge(action), 200, { 'Cache-Control': 'no-store' });
  });
  app.use('/api/v1/*', refuseControlCharactersInJson());
  // The API's reference page (decision 075), beside the API it describes.
  apiDocs(app);
  const v1 = apiV1(services, requestAddress);
  app.route('/api/v1', v1);
  // An unknown API path answers a problem, never the HTML not-found page.
  app.all('/api/*', apiNotFound(v1.routes.map((route) => ({ ...route, path: `/api/v1${route.path}` }))));

  // Files from public/ (favicon.svg …): only paths with an extension look on disk, so a page
  // request never waits for a file-system check.
  if (mode === 'production') {
    // The service worker is asked for again on every visit (decision 085): a new build must
    // reach phones at once, not after an hour of HTTP caching.
    app.get(
      SERVICE_WORKER_PATH,
      serveStatic({ root: clientDir, path: SERVICE_WORKER_PATH.slice(1), onFound: (_path, c) => c.header('Cache-Control', 'no-cache') }),
    );
    const publicFiles = serveStatic({ root: clientDir, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=3600') });
    app.use('*', (c, next) => (/\.[a-z0-9]+$/i.test(c.req.path) ? publicFiles(c, next) : next()));
  }

  // What the pages answer a signed-in person is kept by no cache (document-caching.ts).
  app.use('*', personalAnswersUncached());
  // A pay page is always loaded as a document, so its CSP lets Razorpay Checkout run (security.ts).
  app.use('*', paymentPagesAsDocuments());
  // An admin's change made through this instance shows at once; other instances within the TTL.
  app.use('*', clearPageCacheAfterAdminChange(services));
  app.use('*', sendHindiReadersToHindiPages());
  app.all('*', async (c) => {
    const handleRequest = pageHandlers[languageOfPath(c.req.path)];
    const nonce = c.get('nonce');
    const request = withoutTrackingParameters(c.req.raw);
    return services.pageCache.serve(
      request,
      nonce,
      async () => {
        const context = new RouterContextProvider();
        context.set(appContext, { ...services, nonce, clientAddress: requestAddress(c), socketAddress: getConnInfo(c).remote.address ?? '' });
        const response = await handleRequest(request, context);
        // A loader or action failed on a lost database connection: answered 503 (database-outage.ts).
        if (pageLostConnection(context)) c.set('databaseConnectionLost', true);
        return response;
      },
      (sources) => c.set('scriptSources', sources),
    );
  });

  return app;
}

/**
 * A page request as the page is rendered: without tracking parameters (`?utm_source=…`), which
 * change nothing on a page (app/lib/page-query.ts). A page is then the same whichever link
 * brought the visitor, rendered or from the cache; the browser drops them too (entry.client.tsx).
 */
function withoutTrackingParameters(request: Request): Request {
  if (request.method !== 'GET' && request.method !== 'HEAD') return request;
  const url = new URL(request.url);
  const search = withoutTracking(url.search);
  if (search === url.search) return request;
  url.search = search;
  return new Request(url, request);
}

/**
 * The JSON API the Android app (and the search overlay) reads, each domain's routes from its
 * own `http/` folder. It calls the same services as the pages, so the two never disagree.
 */
export function apiV1(services: AppServices, addressOf: (c: Context) => string) {
  const api = new Hono();
  // The app's sign-in and devices (decision 074).
  authApi(api, services, addressOf);
  catalogApi(api, services);
  carModelsApi(api, services);
  compareAndEmiApi(api, services);
  accountsApi(api, services, addressOf);
  profileApi(api, services);
  wishlistApi(api, services);
  // Notifications on the phone (decision 124).
  pushApi(api, services);
  leadsApi(api, services, addressOf);
  testDriveApi(api, services);
  sellEstimateApi(api, services);
  inspectionApi(api, services);
  // Self-drive rental: the fleet, availability, bookings, the driving licence.
  rentalApi(api, services);
  rentalQuoteAndPayApi(api, services);
  api.route('/', apiLicence(services));
  // Reserving a car for sale with a refundable token (decision 080).
  reservationApi(api, services);
  // The documents issued to the person: invoices and credit notes of cars bought (decision 114).
  documentsApi(api, services);
  deskSalesApi(api, services);
  purchasesApi(api, services);
  // Razorpay's webhook, described here; answered before the CSRF check (assembleApp).
  paymentWebhookApi(api, services);
  // The description of every route above (decision 072), made once from the routes themselves.
  let document: ReturnType<typeof openApiDocument> | undefined;
  const openApi = describeRoute({
    tag: 'Document',
    summary: 'This document (OpenAPI 3.1)',
    ok: { status: 200, schema: openApiDocumentSchema, description: 'The OpenAPI document.' },
  });
  api.get('/openapi.json', openApi, (c) => c.json((document ??= openApiDocument(api.routes)), 200, { 'Cache-Control': 'public, max-age=300' }));
  api.notFound((c) => problem(c, 404, t('notFound')));
  return api;
}

/**
 * The answer for an API path no route took: 405 with `Allow` when the path exists under other
 * methods (RFC 9110 §15.5.6), else 404. Both are problems.
 */
function apiNotFound(routes: ReadonlyArray<{ method: string; path: string }>) {
  const patterns = routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => ({ method: route.method, pattern: new RegExp(`^${route.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`) }));
  return (c: Context) => {
    const allowed = [...new Set(patterns.filter((route) => route.pattern.test(c.req.path)).map((route) => route.method))];
    if (allowed.length === 0) return problem(c, 404, t('notFound'));
    if (allowed.includes('GET')) allowed.push('HEAD');
    return problem(c, 405, t('methodsOnly', { methods: allowed.join(', ') }), { headers: { Allow: allowed.join(', ') } });
  };
}
