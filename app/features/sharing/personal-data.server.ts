import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { forgetLinkMaker, listLinksMadeBy } from "./sharing.queries.server";

/**
 * Share links a member made: the export lists them (never their tokens or passwords; their
 * visitors' data belongs to the visitors and the room). Erasure takes the member off the links
 * they made in rooms, which stay the room's; the links of their own files go with their files.
 */
export const sharingPersonalData = definePersonalDataSource({
  name: "share links",
  async export(ctx, userId) {
    const links = await listLinksMadeBy(ctx.db, userId);
    if (links.length === 0) return [];
    return [
      {
        path: "share-links/links.json",
        description: "The share links you made: what each shares, where, its name and address, its limits, views and dates.",
        data: links.map((link) => ({
          id: link.id,
          name: link.name,
          shares: { type: link.targetType, id: link.targetId, in: link.spaceName },
          customAddress: link.slug,
          expiresAt: link.expiresAt?.toISOString() ?? null,
          maxViews: link.maxViews,
          views: link.viewCount,
          revokedAt: link.revokedAt?.toISOString() ?? null,
          createdAt: link.createdAt.toISOString(),
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    await forgetLinkMaker(ctx.db, userId);
    return { r2Keys: [] };
  },
});
