import { attemptPurchase, jobOutcome, purchaseSummary } from './job-outcome';
import { JOB_STATUSES } from './staging-states';

describe('jobOutcome', () => {
  const noReview = { resultReviewStatus: null, rejection: null } as const;

  it('follows the review once the job succeeded', () => {
    expect(jobOutcome('SUCCESS', { resultReviewStatus: 'PENDING_REVIEW', rejection: null })).toBe('PENDING_REVIEW');
    expect(jobOutcome('SUCCESS', { resultReviewStatus: 'APPROVED', rejection: null })).toBe('APPROVED');
    expect(jobOutcome('SUCCESS', { resultReviewStatus: null, rejection: { afterApproval: false } })).toBe('REJECTED');
    expect(jobOutcome('SUCCESS', { resultReviewStatus: null, rejection: { afterApproval: true } })).toBe('TAKEN_DOWN');
    expect(jobOutcome('SUCCESS', noReview)).toBe('REMOVED');
  });

  it('keeps every other status as it is, whatever the review says', () => {
    for (const status of JOB_STATUSES.filter((s) => s !== 'SUCCESS')) {
      expect(jobOutcome(status, noReview)).toBe(status);
      expect(jobOutcome(status, { resultReviewStatus: null, rejection: { afterApproval: true } })).toBe(status);
    }
  });
});

describe('attemptPurchase', () => {
  it('counts a prediction ID as bought, a create in flight or unconfirmed as unknown, the rest as not bought', () => {
    expect(attemptPurchase({ status: 'CANCELED', hasPrediction: true, errorCode: null })).toBe('BOUGHT');
    expect(attemptPurchase({ status: 'CREATING', hasPrediction: false, errorCode: null })).toBe('UNCONFIRMED');
    expect(attemptPurchase({ status: 'FAILED', hasPrediction: false, errorCode: 'PURCHASE_UNCONFIRMED' })).toBe('UNCONFIRMED');
    expect(attemptPurchase({ status: 'RESERVED', hasPrediction: false, errorCode: null })).toBe('NOT_BOUGHT');
    expect(attemptPurchase({ status: 'FAILED', hasPrediction: false, errorCode: 'PROVIDER_AUTH' })).toBe('NOT_BOUGHT');
    expect(purchaseSummary(['BOUGHT', 'UNCONFIRMED', 'NOT_BOUGHT', 'BOUGHT'])).toEqual({ bought: 2, unconfirmed: 1 });
  });
});
