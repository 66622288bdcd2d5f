'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { isRoomType } from '@staging/domain/room-types';
import { useTRPC, useTRPCClient } from '@/client/trpc';
import { useFocusTarget } from '@/client/use-focus-target';
import { useErrorSentence } from '@/client/use-error-sentence';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { MoreButton } from '@/components/more-button';
import { QueryError, QueryLoading } from '@/components/query-state';
import { AlertMessage } from '@/components/alert-message';
import { CompareView } from './compare-view';
import { useReviewVariants, type ReviewVariant } from './review-data';
import { APPROVAL_HOLD_SECONDS, useApprovalHold, type HeldApproval } from './use-approval-hold';
import './review.css';

/** Typing in a field or working in a dialog must never trigger a shortcut. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('dialog') !== null;
}

interface Outcome {
  text: string;
  /** Rejected variants that can be staged again in the same style. */
  retry: ReviewVariant[];
  error?: boolean;
}

/** `set` without `imageId`. */
function without(set: ReadonlySet<string>, imageId: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(imageId);
  return next;
}

/** The rejection (or take-down) being confirmed: one variant, or the bulk selection. */
interface RejectRequest {
  items: ReviewVariant[];
  takeDown: boolean;
}

function ReviewCard({
  item,
  current,
  reveal,
  selected,
  busy,
  onSelect,
  onFocus,
  onApprove,
  onReject,
}: {
  item: ReviewVariant;
  current: boolean;
  /**
   * Bring the card into view, and with `focus` move the keyboard focus to it: it became current
   * by a shortcut or a review, not by a click. A new object each time it is asked.
   */
  reveal: { focus: boolean } | undefined;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  const id = useId();
  const t = useTranslations('review');
  const { styleName } = usePhotoNaming();
  const ref = useRef<HTMLLIElement>(null);
  const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
  useEffect(() => {
    if (reveal === undefined) return;
    // Focus first without its own scroll: 'nearest' moves the page the least.
    if (reveal.focus) ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [reveal]);

  return (
    <li
      ref={ref}
      className="card stack review-item"
      data-testid="review-item"
      data-image-id={item.variant.id}
      data-current={current}
      aria-labelledby={`${id}-title`}
      aria-current={current ? 'true' : undefined}
      tabIndex={-1}
      onFocusCapture={onFocus}
    >
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id={`${id}-title`} style={{ fontSize: '1.1rem', margin: 0 }}>
          {item.property.title}: {item.name} · {style}
        </h2>
        <label className="row small">
          <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.target.checked)} />
          {t('select')}<span className="visually-hidden"> {item.name} {style}</span>
        </label>
      </div>
      {/* Right under the title, before the comparison: on a phone a card is taller than the
          screen, and its actions are on screen as soon as the card is. */}
      <div className="row" data-testid="review-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={onApprove} aria-keyshortcuts="A">
          {t('approve')}<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <button type="button" className="button" disabled={busy} onClick={onReject} aria-keyshortcuts="R">
          {t('reject')}<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <Link href={`/properties/${encodeURIComponent(item.property.id)}`} className="small">
          {t('openProperty')}<span className="visually-hidden"> {item.property.title}</span>
        </Link>
      </div>
      {item.original === undefined ? (
        <img src={item.variant.url} alt={t('afterAlt', { name: item.name })} />
      ) : (
        <CompareView before={item.original} after={item.variant} name={item.name} />
      )}
    </li>
  );
}

function PublishedList({ items, busy, onTakeDown }: { items: ReviewVariant[]; busy: boolean; onTakeDown: (item: ReviewVariant) => void }) {
  const t = useTranslations('review');
  const { styleName } = usePhotoNaming();
  if (items.length === 0) return <p className="muted">{t('nonePublished')}</p>;
  return (
    <ul className="variant-strip" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => {
        const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
        return (
          <li key={item.variant.id} className="card stack" style={{ gap: '0.4rem', padding: '0.5rem' }} data-testid="published-item" data-image-id={item.variant.id}>
            <div className="cmp-frame" style={{ aspectRatio: `${item.variant.width} / ${item.variant.height}` }}>
              <img src={item.variant.url} alt={t('publishedAlt', { name: item.name, style })} loading="lazy" />
            </div>
            <span className="small">
              {item.property.title}: {item.name} · {style}
            </span>
            <button type="button" className="button button-small button-danger" disabled={busy} onClick={() => onTakeDown(item)}>
              {t('takeDown')}<span className="visually-hidden"> {item.name} {style}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The review queue: every variant waiting for the agent's review, one current item driven by
 * keyboard shortcuts (A approve, R reject, J/N next, K/P previous), an approval held a few seconds
 * with an Undo before it is sent, bulk approve/reject of a selection after a confirmation, "Try
 * again" right after a rejection, and the published variants with a take-down (the same
 * rejection: REJECTED event, row removed, object to the deletion outbox, search document rebuilt).
 */
export function ReviewQueue({ focusImageId }: { focusImageId: string | undefined }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const id = useId();
  const t = useTranslations('review');
  const tc = useTranslations('common');
  const errorSentence = useErrorSentence();
  const { styleName } = usePhotoNaming();
  /** A variant in messages: "Photo 1 (Bedroom) in Modern style for Sunny flat". */
  const describe = (item: ReviewVariant) =>
    t('describe', { name: item.name, style: styleName(item.variant.canonicalStyle ?? item.variant.style), property: item.property.title });
  const { list, details, pending: waiting, approved, morePending, moreApproved, loading } = useReviewVariants();
  // A variant linked from the property page comes first.
  waiting.sort((a, b) => Number(b.variant.id === focusImageId) - Number(a.variant.id === focusImageId));
  // Approvals held for their Undo, and sent ones until the queue is read again, are out of it.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const pending = waiting.filter((item) => !hidden.has(item.variant.id));

  // The current item, and whether to scroll it into view. A shortcut or a review moves it off
  // screen, so it is revealed; J/K and an undo move the keyboard focus to it too, so Tab goes on
  // from the card shown. Focus (a click or Tab into a card) makes a card current without
  // scrolling: the browser already shows what takes focus, and a scroll between the mouse press
  // and its release moves the card from under the pointer, which loses the click.
  const [cursor, setCursor] = useState<{ id: string | undefined; reveal: { focus: boolean } | undefined }>({ id: focusImageId, reveal: undefined });
  const currentId = cursor.id;
  const moveTo = (imageId: string | undefined, focus = false) => setCursor({ id: imageId, reveal: { focus } });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmApprove, setConfirmApprove] = useState<ReviewVariant[] | undefined>();
  const [rejectRequest, setRejectRequest] = useState<RejectRequest | undefined>();
  const [reason, setReason] = useState('');
  // A take-down pressed without a reason: said under the field, which keeps the focus.
  const [reasonMissing, setReasonMissing] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  // Every outcome takes focus: the reviewed item (and the button that was pressed) is gone.
  const outcomeFocus = useFocusTarget<HTMLDivElement>();
  const announce = (next: Outcome) => {
    setOutcome(next);
    outcomeFocus.moveFocus();
  };
  const currentIndex = Math.max(0, pending.findIndex((item) => item.variant.id === currentId));
  const current = pending[currentIndex];

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.ai.reviewVariants.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.ai.pendingReviewCount.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    ]);
  // The next item to review once `done` leave the queue.
  const advancePast = (done: ReviewVariant[]) => {
    const ids = new Set(done.map((item) => item.variant.id));
    const rest = pending.filter((item, index) => index >= currentIndex && !ids.has(item.variant.id));
    const fallback = pending.filter((item) => !ids.has(item.variant.id));
    moveTo((rest[0] ?? fallback[fallback.length - 1])?.variant.id);
    setSelected((old) => new Set([...old].filter((imageId) => !ids.has(imageId))));
  };

  // A held approval that lapsed, or whose page is being left: sent with keepalive, so it arrives
  // even from a page that is closing. After a lapse the queue says so; an Undo button that had
  // the focus is gone, so the current card takes it.
  const sendHeld = ({ key, item }: HeldApproval<ReviewVariant>) => {
    if (document.activeElement?.closest(`[data-hold-key="${key}"]`) != null) setCursor((old) => ({ id: old.id, reveal: { focus: true } }));
    client.ai.approveStagedVariant.mutate({ imageId: item.variant.id }, { context: { keepalive: true } }).then(
      async () => {
        setOutcome({ text: t('approvedOne', { what: describe(item) }), retry: [] });
        await refresh();
      },
      async (error: unknown) => {
        setHidden((old) => without(old, item.variant.id));
        announce({ text: errorSentence(error), retry: [], error: true });
        await refresh();
      },
    );
  };
  const approvals = useApprovalHold(sendHeld);
  // A new hold's Undo takes the focus from the card that left the queue.
  const undoFocus = useFocusTarget<HTMLButtonElement>();
  const startApproval = (item: ReviewVariant) => {
    setHidden((old) => new Set(old).add(item.variant.id));
    advancePast([item]);
    approvals.hold(item);
    undoFocus.moveFocus();
  };
  const undoApproval = (held: HeldApproval<ReviewVariant>) => {
    if (approvals.undo(held.key) === undefined) return;
    setHidden((old) => without(old, held.item.variant.id));
    moveTo(held.item.variant.id, true);
    setOutcome({ text: t('approvalWithdrawn', { what: describe(held.item) }), retry: [] });
  };

  // Bulk approval: confirmed in a dialog first, sent at once.
  const approve = useMutation({
    mutationFn: async (items: ReviewVariant[]) => {
      for (const item of items) await client.ai.approveStagedVariant.mutate({ imageId: item.variant.id });
      return items;
    },
    onSuccess: async (items) => {
      setConfirmApprove(undefined);
      advancePast(items);
      announce({
        text:
          items.length === 1 ? t('approvedOne', { what: describe(items[0]!) }) : t('approvedMany', { count: items.length }),
        retry: [],
      });
      await refresh();
    },
    onError: async (error) => {
      setConfirmApprove(undefined);
      announce({ text: errorSentence(error), retry: [], error: true });
      await refresh();
    },
  });
  const reject = useMutation({
    mutationFn: async ({ items, reason: why }: { items: ReviewVariant[]; reason: string }) => {
      for (const item of items) await client.ai.rejectStagedVariant.mutate({ imageId: item.variant.id, ...(why === '' ? {} : { reason: why }) });
      return items;
    },
    onSuccess: async (items) => {
      const takeDown = rejectRequest?.takeDown === true;
      setRejectRequest(undefined);
      setReason('');
      advancePast(items);
      const what = items.length === 1 ? describe(items[0]!) : t('variants', { count: items.length });
      announce({
        text: takeDown ? t('tookDown', { what }) : t('rejected', { what }),
        retry: items.filter((item) => item.original !== undefined && item.variant.canonicalStyle !== null),
      });
      await refresh();
    },
  });
  const tryAgain = useMutation(
    trpc.ai.submitStaging.mutationOptions({
      onSuccess: async (result) => {
        const queued = result.items.filter((item) => item.disposition !== STAGING_DISPOSITIONS.STYLE_EXISTS).length;
        announce({
          text: t('stagingAgain', { count: queued }),
          retry: [],
        });
        await refresh();
      },
    }),
  );
  const busy = approve.isPending || reject.isPending;

  const startTryAgain = (items: ReviewVariant[]) => {
    tryAgain.mutate({
      assignments: items.flatMap((item) => {
        const roomType = item.variant.roomType ?? item.original?.roomType ?? null;
        if (item.original === undefined || item.variant.canonicalStyle === null || !isRoomType(roomType)) return [];
        return [{ originalImageId: item.original.id, roomType, style: item.variant.canonicalStyle }];
      }),
    });
  };

  const openReject = useCallback((items: ReviewVariant[], takeDown: boolean) => {
    reject.reset();
    setReason('');
    setReasonMissing(false);
    setRejectRequest({ items, takeDown });
  }, [reject]);

  // Shortcuts act on the current item; they are off while typing or while a dialog is open.
  const shortcut = useRef<(event: KeyboardEvent) => void>(() => undefined);
  shortcut.current = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target) || busy) return;
    const key = event.key.toLowerCase();
    if ((key === 'j' || key === 'n') && pending.length > 0) moveTo(pending[Math.min(pending.length - 1, currentIndex + 1)]!.variant.id, true);
    else if ((key === 'k' || key === 'p') && pending.length > 0) moveTo(pending[Math.max(0, currentIndex - 1)]!.variant.id, true);
    else if (key === 'a' && current !== undefined) startApproval(current);
    else if (key === 'r' && current !== undefined) openReject([current], false);
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => shortcut.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  if (list.isPending) return <QueryLoading>{t('loading')}</QueryLoading>;
  if (list.isError) return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;

  const selectedItems = pending.filter((item) => selected.has(item.variant.id));
  const rejectItems = rejectRequest?.items ?? [];
  return (
    <div className="stack">
      <div role="status" aria-live="polite" ref={outcomeFocus.ref} tabIndex={-1} className={outcome === undefined ? 'muted' : outcome.error === true ? 'alert alert-error' : 'alert alert-success'}>
        {outcome?.text ?? (loading ? tc('loading') : t('waiting', { count: pending.length }))}
        {outcome !== undefined && outcome.retry.length > 0 && (
          <div style={{ marginTop: '0.4rem' }}>
            <button type="button" className="button button-small" disabled={tryAgain.isPending} onClick={() => startTryAgain(outcome.retry)}>
              {tryAgain.isPending ? t('starting') : t('tryAgainSameStyle')}
            </button>
          </div>
        )}
      </div>
      {/* Fixed at the bottom of the window, so the Undo is in reach wherever the page is scrolled. */}
      <div role="status" aria-live="polite" className="approval-holds">
        {approvals.held.map((held, index) => (
          <p key={held.key} className="approval-hold" data-testid="approval-hold" data-hold-key={held.key}>
            <span>{t('approvingIn', { seconds: APPROVAL_HOLD_SECONDS, what: describe(held.item) })}</span>
            <button
              type="button"
              className="button button-small"
              ref={index === approvals.held.length - 1 ? undoFocus.ref : undefined}
              onClick={() => undoApproval(held)}
            >
              {t('undo')}
              <span className="visually-hidden"> {describe(held.item)}</span>
            </button>
          </p>
        ))}
      </div>
      <AlertMessage message={tryAgain.isError ? errorSentence(tryAgain.error) : undefined} tone="page" />
      {details
        .filter((query) => query.isError)
        .map((query, index) => (
          <QueryError key={index} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ))}
      <p className="small muted kbd-help" id={`${id}-keys`}>
        {t.rich('shortcuts', { kbd: (key) => <kbd>{key}</kbd> })}
      </p>
      {pending.length > 0 && (
        <div className="review-toolbar" role="group" aria-label={t('selectedGroup')}>
          <label className="row small">
            <input
              type="checkbox"
              checked={selectedItems.length === pending.length}
              onChange={(event) => setSelected(event.target.checked ? new Set(pending.map((item) => item.variant.id)) : new Set())}
            />
            {t('selectAll')}
          </label>
          {/* Bulk actions appear with a selection, so a lone item has one Approve and one Reject. */}
          {selectedItems.length > 0 && (
            <>
              <button type="button" className="button button-small" disabled={busy} onClick={() => setConfirmApprove(selectedItems)}>
                {t('approveSelected', { count: selectedItems.length })}
              </button>
              <button type="button" className="button button-small" disabled={busy} onClick={() => openReject(selectedItems, false)}>
                {t('rejectSelected', { count: selectedItems.length })}
              </button>
            </>
          )}
        </div>
      )}
      {!loading && pending.length === 0 && <p>{t('nothing')}</p>}
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-describedby={`${id}-keys`}>
        {pending.map((item) => (
          <ReviewCard
            key={item.variant.id}
            item={item}
            current={item === current}
            reveal={item === current ? cursor.reveal : undefined}
            selected={selected.has(item.variant.id)}
            busy={busy}
            onSelect={(on) =>
              setSelected((old) => {
                const next = new Set(old);
                if (on) next.add(item.variant.id);
                else next.delete(item.variant.id);
                return next;
              })
            }
            onFocus={() => setCursor((old) => (old.id === item.variant.id ? old : { id: item.variant.id, reveal: undefined }))}
            onApprove={() => startApproval(item)}
            onReject={() => openReject([item], false)}
          />
        ))}
      </ul>
      <MoreButton more={morePending} label={t('morePending')} testId="review-more" />
      <section className="section" aria-labelledby={`${id}-published`}>
        <h2 id={`${id}-published`}>{t('published')}</h2>
        <p className="muted small">{t('publishedIntro')}</p>
        <PublishedList items={approved} busy={busy} onTakeDown={(item) => openReject([item], true)} />
        <MoreButton more={moreApproved} label={t('morePublished')} testId="review-more" />
      </section>
      <ConfirmDialog
        open={confirmApprove !== undefined}
        title={t('approveTitle', { count: confirmApprove?.length ?? 0 })}
        confirmLabel={t('approveConfirm')}
        busy={approve.isPending}
        onConfirm={() => approve.mutate(confirmApprove ?? [])}
        onCancel={() => setConfirmApprove(undefined)}
      >
        <p>{t('approveBody')}</p>
        <ul className="small">
          {confirmApprove?.map((item) => <li key={item.variant.id}>{describe(item)}</li>)}
        </ul>
      </ConfirmDialog>
      <ConfirmDialog
        open={rejectRequest !== undefined}
        title={
          rejectRequest?.takeDown === true
            ? t('takeDownTitle', { name: rejectItems[0]?.name ?? '', style: styleName(rejectItems[0]?.variant.canonicalStyle ?? null) })
            : rejectItems.length === 1
              ? t('rejectOneTitle', { name: rejectItems[0]!.name, style: styleName(rejectItems[0]!.variant.canonicalStyle ?? rejectItems[0]!.variant.style) })
              : t('rejectManyTitle', { count: rejectItems.length })
        }
        confirmLabel={rejectRequest?.takeDown === true ? t('takeDownConfirm') : rejectItems.length === 1 ? t('rejectOneConfirm') : t('rejectManyConfirm')}
        danger
        busy={reject.isPending}
        error={reject.isError ? errorSentence(reject.error) : undefined}
        onConfirm={() => {
          if (rejectRequest?.takeDown === true && reason.trim() === '') {
            setReasonMissing(true);
            reasonRef.current?.focus();
            return;
          }
          reject.mutate({ items: rejectItems, reason: reason.trim() });
        }}
        onCancel={() => setRejectRequest(undefined)}
      >
        <p>
          {rejectRequest?.takeDown === true
            ? t('takeDownBody')
            : t('rejectBody')}
        </p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{rejectRequest?.takeDown === true ? t('reasonRequired') : t('reasonOptional')}</label>
          <textarea
            id={`${id}-reason`}
            ref={reasonRef}
            rows={3}
            maxLength={500}
            required={rejectRequest?.takeDown === true}
            aria-invalid={reasonMissing || undefined}
            aria-describedby={reasonMissing ? `${id}-reason-error` : undefined}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonMissing(false);
            }}
          />
          <AlertMessage message={reasonMissing ? t('reasonMissing') : undefined} id={`${id}-reason-error`} />
        </div>
      </ConfirmDialog>
    </div>
  );
}
