import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { useStagingTestContext } from '../staging/testing/staging-test-kit';
import { countPendingReview, listReviewVariants, REVIEW_COUNT_CAP } from './list-review-variants';

const ctx = useStagingTestContext();

describe('listReviewVariants', () => {
  it("pages through one review state of the agent's own and assigned properties, newest first, naming each original by its place", async () => {
    const agent = await createUser(ctx.db);
    const other = await createUser(ctx.db);
    const own = await createProperty(ctx.db, { ownerAgentId: agent.id });
    const assigned = await createProperty(ctx.db, { ownerAgentId: other.id, assignedAgentIds: [agent.id] });
    const foreign = await createProperty(ctx.db, { ownerAgentId: other.id });
    const first = await createOriginalImage(ctx.db, { propertyId: own.id, displayOrder: 0 });
    const second = await createOriginalImage(ctx.db, { propertyId: own.id, displayOrder: 1 });
    const assignedOriginal = await createOriginalImage(ctx.db, { propertyId: assigned.id });
    const foreignOriginal = await createOriginalImage(ctx.db, { propertyId: foreign.id });
    const pending = [
      await createStagedImage(ctx.db, { original: second, canonicalStyle: 'MODERN' }),
      await createStagedImage(ctx.db, { original: assignedOriginal, canonicalStyle: 'COASTAL' }),
      await createStagedImage(ctx.db, { original: second, canonicalStyle: 'FARMHOUSE' }),
    ];
    // Distinct instants, so that "newest first" is one order.
    for (const [index, image] of pending.entries()) {
      await ctx.db.propertyImage.update({ where: { id: image.id }, data: { createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)) } });
    }
    await createStagedImage(ctx.db, { original: foreignOriginal });
    const published = await createStagedImage(ctx.db, { original: first, reviewStatus: 'APPROVED' });

    const actor = { id: agent.id, role: 'AGENT' } as const;
    const page1 = await listReviewVariants(ctx.db, actor, { reviewStatus: 'PENDING_REVIEW', limit: 2 });
    const page2 = await listReviewVariants(ctx.db, actor, { reviewStatus: 'PENDING_REVIEW', limit: 2, cursor: page1.nextCursor! });
    expect([...page1.items, ...page2.items].map((item) => item.variant.id)).toEqual(pending.map((image) => image.id).reverse());
    expect(page2.nextCursor).toBeNull();
    expect(page1.items[0]).toMatchObject({ property: { id: own.id, title: own.title }, original: { id: second.id }, originalNumber: 2 });

    expect(await countPendingReview(ctx.db, actor)).toEqual({ pending: 3, isLowerBound: false });

    const approved = await listReviewVariants(ctx.db, actor, { reviewStatus: 'APPROVED', limit: 10 });
    expect(approved.items.map((item) => [item.variant.id, item.originalNumber])).toEqual([[published.id, 1]]);
    // Review is the agents' own: an admin's support access lists none of these.
    expect((await listReviewVariants(ctx.db, { id: other.id, role: 'ADMIN' }, { reviewStatus: 'PENDING_REVIEW', limit: 10 })).items.map((item) => item.property.id)).not.toContain(own.id);
  });

  it('counts the variants waiting for review up to a cap, and says when there are more', async () => {
    const agent = await createUser(ctx.db);
    const property = await createProperty(ctx.db, { ownerAgentId: agent.id });
    const originals = REVIEW_COUNT_CAP; // one variant each, so the live-variant index allows it
    await ctx.db.$executeRaw`
      INSERT INTO "property_images" ("id", "propertyId", "objectKey", "contentType", "width", "height", "bytes", "isStyled", "styledFromId", "canonicalStyle", "style", "reviewStatus")
      SELECT ${property.id} || kind || n, ${property.id}, 'k/' || ${property.id} || kind || n, 'image/jpeg', 10, 10, 10,
        kind = '-v', CASE WHEN kind = '-v' THEN ${property.id} || '-o' || n END,
        CASE WHEN kind = '-v' THEN 'MODERN'::"CanonicalStyle" END, CASE WHEN kind = '-v' THEN 'MODERN' END,
        CASE WHEN kind = '-v' THEN 'PENDING_REVIEW'::"ReviewStatus" END
      FROM generate_series(1, ${originals + 1}) n, (VALUES ('-o'), ('-v')) k(kind) ORDER BY kind`;
    expect(await countPendingReview(ctx.db, { id: agent.id, role: 'AGENT' })).toEqual({ pending: REVIEW_COUNT_CAP, isLowerBound: true });
  });
});
