export interface LoginRateLimits {
  /** Attempts per IP address per window, whatever their outcome. */
  perIp: number;
  /** Failed attempts on one account from one address per window; the right password clears them. */
  failuresPerAccountAndIp: number;
  /** Failed attempts on one account (any address) per window before further failures are answered late. */
  failuresPerAccountBeforeDelay: number;
  /** Added to the answer of each failure beyond that threshold, up to maxDelayMs. */
  delayPerFailureMs: number;
  maxDelayMs: number;
  windowSeconds: number;
}

/**
 * Login limits (docs/decisions/api.md "Login rate limits"), the same for the api's /api/auth/login and
 * the web app's sign-in form. No limit can be used to lock an agent
 * out: whoever knows an agent's email can fail as often as they like, and the right password from
 * another address still signs in at once.
 * - per address, every attempt: one client cannot spray passwords over many accounts;
 * - per account and address, failures only (rate-limiter-flexible's "consecutive fails by
 *   username and IP"): a success clears it, and it refuses only that address;
 * - per account, failures only: past a threshold each further wrong password is answered late,
 *   so guessing one password from many addresses gets slow. The right password is never delayed.
 */
export const LOGIN_RATE_LIMITS: LoginRateLimits = {
  perIp: 50,
  failuresPerAccountAndIp: 10,
  failuresPerAccountBeforeDelay: 10,
  delayPerFailureMs: 1_000,
  maxDelayMs: 10_000,
  windowSeconds: 15 * 60,
};
