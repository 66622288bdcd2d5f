'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { isRoomType } from '@staging/domain/room-types';
import { useTRPC, useTRPCClient } from '@/client/trpc';
import { useFocusTarget } from '@/client/use-focus-target';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { styleName } from '@/components/property/originals-section';
import { QueryError, QueryLoading } from '@/components/query-state';
import { errorSentence } from '@/lib/api-errors';
import { CompareView } from './compare-view';
import { useReviewVariants, type ReviewVariant } from './review-data';
import './review.css';

/** Labels of a variant in messages: "Photo 1 (Bedroom) in Modern style for Sunny flat". */
function describe(item: ReviewVariant): string {
  return `${item.name} in ${styleName(item.variant.canonicalStyle ?? item.variant.style)} style for ${item.property.title}`;
}

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

/** The rejection (or take-down) being confirmed: one variant, or the bulk selection. */
interface RejectRequest {
  items: ReviewVariant[];
  takeDown: boolean;
}

function ReviewCard({
  item,
  current,
  selected,
  busy,
  onSelect,
  onFocus,
  onApprove,
  onReject,
}: {
  item: ReviewVariant;
  current: boolean;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  const id = useId();
  const ref = useRef<HTMLLIElement>(null);
  const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  return (
    <li
      ref={ref}
      className="card stack review-item"
      data-testid="review-item"
      data-image-id={item.variant.id}
      data-current={current}
      aria-labelledby={`${id}-title`}
      aria-current={current ? 'true' : undefined}
      onFocusCapture={onFocus}
    >
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id={`${id}-title`} style={{ fontSize: '1.1rem', margin: 0 }}>
          {item.property.title}: {item.name} · {style}
        </h2>
        <label className="row small">
          <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.target.checked)} />
          Select<span className="visually-hidden"> {item.name} {style}</span>
        </label>
      </div>
      {item.original === undefined ? (
        <img src={item.variant.url} alt={`${item.name} after staging (AI)`} />
      ) : (
        <CompareView before={item.original} after={item.variant} name={item.name} />
      )}
      <div className="row">
        <button type="button" className="button button-primary" disabled={busy} onClick={onApprove} aria-keyshortcuts="A">
          Approve<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <button type="button" className="button" disabled={busy} onClick={onReject} aria-keyshortcuts="R">
          Reject…<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <Link href={`/properties/${encodeURIComponent(item.property.id)}`} className="small">
          Open property<span className="visually-hidden"> {item.property.title}</span>
        </Link>
      </div>
    </li>
  );
}

function PublishedList({ items, busy, onTakeDown }: { items: ReviewVariant[]; busy: boolean; onTakeDown: (item: ReviewVariant) => void }) {
  if (items.length === 0) return <p className="muted">No staged photo is published yet.</p>;
  return (
    <ul className="variant-strip" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => {
        const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
        return (
          <li key={item.variant.id} className="card stack" style={{ gap: '0.4rem', padding: '0.5rem' }} data-testid="published-item" data-image-id={item.variant.id}>
            <div className="cmp-frame" style={{ aspectRatio: `${item.variant.width} / ${item.variant.height}` }}>
              <img src={item.variant.url} alt={`${item.name} staged in ${style} style (published)`} loading="lazy" />
            </div>
            <span className="small">
              {item.property.title}: {item.name} · {style}
            </span>
            <button type="button" className="button button-small button-danger" disabled={busy} onClick={() => onTakeDown(item)}>
              Take down…<span className="visually-hidden"> {item.name} {style}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The review queue: every variant waiting for the agent's review, one current item driven by
 * keyboard shortcuts (A approve, R reject, J/N next, K/P previous), bulk approve/reject of a
 * selection after a confirmation, "Try again" right after a rejection, and the published variants
 * with a take-down (the same rejection: REJECTED event, row removed, object to the deletion
 * outbox, search document rebuilt).
 */
export function ReviewQueue({ focusImageId }: { focusImageId: string | undefined }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const id = useId();
  const { list, details, pending, approved, loading } = useReviewVariants();
  // A variant linked from the property page comes first.
  pending.sort((a, b) => Number(b.variant.id === focusImageId) - Number(a.variant.id === focusImageId));

  const [currentId, setCurrentId] = useState<string | undefined>(focusImageId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmApprove, setConfirmApprove] = useState<ReviewVariant[] | undefined>();
  const [rejectRequest, setRejectRequest] = useState<RejectRequest | undefined>();
  const [reason, setReason] = useState('');
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
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    ]);
  // The next item to review once `done` leave the queue.
  const advancePast = (done: ReviewVariant[]) => {
    const ids = new Set(done.map((item) => item.variant.id));
    const rest = pending.filter((item, index) => index >= currentIndex && !ids.has(item.variant.id));
    const fallback = pending.filter((item) => !ids.has(item.variant.id));
    setCurrentId((rest[0] ?? fallback[fallback.length - 1])?.variant.id);
    setSelected((old) => new Set([...old].filter((imageId) => !ids.has(imageId))));
  };

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
          items.length === 1
            ? `Approved ${describe(items[0]!)}; it now shows on the public page.`
            : `Approved ${items.length} variants; they now show on their public pages.`,
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
      const what = items.length === 1 ? describe(items[0]!) : `${items.length} variants`;
      announce({
        text: takeDown ? `Took down ${what}; it no longer shows on the public page.` : `Rejected ${what}; the same style can be staged again.`,
        retry: items.filter((item) => item.original !== undefined && item.variant.canonicalStyle !== null),
      });
      await refresh();
    },
  });
  const tryAgain = useMutation(
    trpc.ai.submitStaging.mutationOptions({
      onSuccess: async (result) => {
        const queued = result.items.filter((item) => item.disposition !== 'style_exists').length;
        announce({
          text: `Staging again: ${queued} new job${queued === 1 ? '' : 's'} started. The results appear here when they are ready.`,
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
    setRejectRequest({ items, takeDown });
  }, [reject]);

  // Shortcuts act on the current item; they are off while typing or while a dialog is open.
  const shortcut = useRef<(event: KeyboardEvent) => void>(() => undefined);
  shortcut.current = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target) || busy) return;
    const key = event.key.toLowerCase();
    if ((key === 'j' || key === 'n') && pending.length > 0) setCurrentId(pending[Math.min(pending.length - 1, currentIndex + 1)]!.variant.id);
    else if ((key === 'k' || key === 'p') && pending.length > 0) setCurrentId(pending[Math.max(0, currentIndex - 1)]!.variant.id);
    else if (key === 'a' && current !== undefined) approve.mutate([current]);
    else if (key === 'r' && current !== undefined) openReject([current], false);
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => shortcut.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  if (list.isPending) return <QueryLoading>Loading the review queue…</QueryLoading>;
  if (list.isError) return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;

  const selectedItems = pending.filter((item) => selected.has(item.variant.id));
  const rejectItems = rejectRequest?.items ?? [];
  return (
    <div className="stack">
      <div role="status" aria-live="polite" ref={outcomeFocus.ref} tabIndex={-1} className={outcome === undefined ? 'muted' : outcome.error === true ? 'alert alert-error' : 'alert alert-success'}>
        {outcome?.text ?? (loading ? 'Loading…' : `${pending.length} variant${pending.length === 1 ? '' : 's'} waiting for review.`)}
        {outcome !== undefined && outcome.retry.length > 0 && (
          <div style={{ marginTop: '0.4rem' }}>
            <button type="button" className="button button-small" disabled={tryAgain.isPending} onClick={() => startTryAgain(outcome.retry)}>
              {tryAgain.isPending ? 'Starting…' : 'Try again in the same style'}
            </button>
          </div>
        )}
      </div>
      {tryAgain.isError && (
        <p className="alert alert-error" role="alert">
          {errorSentence(tryAgain.error)}
        </p>
      )}
      {details
        .filter((query) => query.isError)
        .map((query, index) => (
          <QueryError key={index} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ))}
      <p className="small muted kbd-help" id={`${id}-keys`}>
        Shortcuts: <kbd>A</kbd> approve, <kbd>R</kbd> reject, <kbd>J</kbd> or <kbd>N</kbd> next, <kbd>K</kbd> or <kbd>P</kbd> previous. Arrow keys move the
        comparison handle.
      </p>
      {pending.length > 0 && (
        <div className="review-toolbar" role="group" aria-label="Selected variants">
          <label className="row small">
            <input
              type="checkbox"
              checked={selectedItems.length === pending.length}
              onChange={(event) => setSelected(event.target.checked ? new Set(pending.map((item) => item.variant.id)) : new Set())}
            />
            Select all
          </label>
          {/* Bulk actions appear with a selection, so a lone item has one Approve and one Reject. */}
          {selectedItems.length > 0 && (
            <>
              <button type="button" className="button button-small" disabled={busy} onClick={() => setConfirmApprove(selectedItems)}>
                Approve selected ({selectedItems.length})
              </button>
              <button type="button" className="button button-small" disabled={busy} onClick={() => openReject(selectedItems, false)}>
                Reject selected ({selectedItems.length})
              </button>
            </>
          )}
        </div>
      )}
      {!loading && pending.length === 0 && <p>Nothing to review. New staging results appear here automatically.</p>}
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-describedby={`${id}-keys`}>
        {pending.map((item) => (
          <ReviewCard
            key={item.variant.id}
            item={item}
            current={item === current}
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
            onFocus={() => setCurrentId(item.variant.id)}
            onApprove={() => approve.mutate([item])}
            onReject={() => openReject([item], false)}
          />
        ))}
      </ul>
      <section className="section" aria-labelledby={`${id}-published`}>
        <h2 id={`${id}-published`}>Published staged photos</h2>
        <p className="muted small">Taking a photo down removes it from the public page at once; the reason is kept with the review history.</p>
        <PublishedList items={approved} busy={busy} onTakeDown={(item) => openReject([item], true)} />
      </section>
      <ConfirmDialog
        open={confirmApprove !== undefined}
        title={`Approve ${confirmApprove?.length ?? 0} variants?`}
        confirmLabel="Approve all selected"
        busy={approve.isPending}
        onConfirm={() => approve.mutate(confirmApprove ?? [])}
        onCancel={() => setConfirmApprove(undefined)}
      >
        <p>They will show on their public pages, labelled “AI · Virtually staged”.</p>
        <ul className="small">
          {confirmApprove?.map((item) => <li key={item.variant.id}>{describe(item)}</li>)}
        </ul>
      </ConfirmDialog>
      <ConfirmDialog
        open={rejectRequest !== undefined}
        title={
          rejectRequest?.takeDown === true
            ? `Take down ${rejectItems[0]?.name ?? ''} (${styleName(rejectItems[0]?.variant.canonicalStyle ?? null)})?`
            : rejectItems.length === 1
              ? `Reject ${rejectItems[0]!.name} (${styleName(rejectItems[0]!.variant.canonicalStyle ?? rejectItems[0]!.variant.style)})?`
              : `Reject ${rejectItems.length} variants?`
        }
        confirmLabel={rejectRequest?.takeDown === true ? 'Take down' : rejectItems.length === 1 ? 'Reject variant' : 'Reject all selected'}
        danger
        busy={reject.isPending}
        error={reject.isError ? errorSentence(reject.error) : undefined}
        onConfirm={() => {
          if (rejectRequest?.takeDown === true && reason.trim() === '') return;
          reject.mutate({ items: rejectItems, reason: reason.trim() });
        }}
        onCancel={() => setRejectRequest(undefined)}
      >
        <p>
          {rejectRequest?.takeDown === true
            ? 'The published staged image is removed from the public page and deleted. You can stage the photo in this style again afterwards.'
            : 'The staged image is deleted. You can stage the photo in this style again afterwards.'}
        </p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{rejectRequest?.takeDown === true ? 'Reason (required)' : 'Reason (optional)'}</label>
          <textarea
            id={`${id}-reason`}
            rows={3}
            maxLength={500}
            required={rejectRequest?.takeDown === true}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      </ConfirmDialog>
    </div>
  );
}
