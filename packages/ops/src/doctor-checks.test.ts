import { describeQueueDashboard } from './doctor-checks';

describe('describeQueueDashboard', () => {
  const credentials = { user: 'ops', password: 'dashboard-password-VALUE' };

  it.each([
    ['no dashboard', undefined, 'info', 'not mounted'],
    ['a read-only dashboard', { ...credentials, writesEnabled: false }, 'info', 'read-only (QUEUE_DASHBOARD_WRITES=disabled)'],
    ['a dashboard with writes', { ...credentials, writesEnabled: true }, 'warn', 'QUEUE_DASHBOARD_WRITES=enabled'],
  ])('reports %s', (_name, dashboard, status, detail) => {
    const finding = describeQueueDashboard(dashboard);
    expect(finding).toMatchObject({ scope: 'worker', check: 'queue dashboard', status, detail: expect.stringContaining(detail) });
    expect(finding.detail).not.toContain(credentials.password);
  });
});
