import express from 'express';
import type { Router } from 'express';
import { z } from 'zod';
import { createLoginGuard, signInGuarded } from '@staging/http-edge/login-guard';
import { serializeClearedSessionCookie, serializeSessionCookie } from '@staging/services/auth/cookies';
import { login } from '@staging/services/auth/login';
import { revokeSession } from '@staging/services/auth/sessions';
import type { TrpcDeps } from '@staging/trpc/context';
import type { ApiDeps } from '../api-deps';
import { sessionTokenOf, usesSecureCookies } from '../auth/request-session';
import { methodNotAllowed } from '../http/errors';
import { clientAddressOf, limitedSession } from '../http/read-limits';
import type { ReadLimit } from '../http/read-limits';

const ZLoginBody = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me. */
export function createAuthRouter(deps: ApiDeps, trpcDeps: TrpcDeps, readLimit: ReadLimit): Router {
  const router = express.Router();
  const guard = createLoginGuard(trpcDeps, deps.loginRateLimits);
  const json = express.json({ limit: '8kb', strict: true, type: () => true });

  router.post('/api/auth/login', json, async (req, res) => {
    const body = ZLoginBody.parse(req.body ?? {});
    const attempt = { ip: clientAddressOf(req, deps.config.trustedProxyHops), email: body.email };
    const { session } = await signInGuarded(guard, attempt, () => login(deps.db, body, deps.clock.now()));
    res.setHeader('Set-Cookie', serializeSessionCookie(session.token, { expiresAt: session.expiresAt, secure: usesSecureCookies(deps) }));
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });
  router.all('/api/auth/login', methodNotAllowed(['POST']));

  router.post('/api/auth/logout', async (req, res) => {
    const token = sessionTokenOf(req);
    if (token !== undefined) await revokeSession(deps.db, token);
    res.setHeader('Set-Cookie', serializeClearedSessionCookie({ secure: usesSecureCookies(deps) }));
    res.status(204).end();
  });
  router.all('/api/auth/logout', methodNotAllowed(['POST']));

  router.get('/api/auth/me', readLimit('/api/auth/me'), (req, res) => {
    const session = limitedSession(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ user: session.user });
  });
  router.all('/api/auth/me', methodNotAllowed(['GET']));
  return router;
}
