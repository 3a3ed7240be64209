import { deleteMailForUser } from "~/features/mail/mail.queries.server";
import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { AppError } from "~/lib/errors";
import { describeDevice } from "./activity.server";
import { deleteUserRow, findUserById } from "./auth.queries.server";
import { listAuthEventsForExport, listMailsForExport, listSessionsForExport } from "./personal-data.queries.server";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Sign-in codes sit in some subjects; by export time they are spent, but a secret is never exported. */
const redactCodes = (subject: string) => subject.replace(/\b\d{6}\b/g, "[code removed]");

/**
 * The account's own data: profile, sessions, account activity and the mails sent to the member.
 * Never exported: the password hash, the TOTP key, session ids, token and recovery-code hashes,
 * and mail bodies (they can hold live links).
 */
export const accountsPersonalData = definePersonalDataSource({
  name: "accounts",

  async export(ctx, userId) {
    const user = await findUserById(ctx.db, userId);
    if (!user) throw new AppError("NOT_FOUND", "That account no longer exists.");
    const [sessionRows, eventRows, mailRows] = await Promise.all([
      listSessionsForExport(ctx.db, userId),
      listAuthEventsForExport(ctx.db, userId),
      listMailsForExport(ctx.db, userId, user.email),
    ]);
    return [
      {
        path: "profile.json",
        description: "Your account: name, e-mail address, plan, when it was created and which sign-in protections are on.",
        data: {
          id: user.id,
          name: user.name,
          email: user.email,
          emailVerified: user.emailVerifiedAt !== null,
          emailVerifiedAt: iso(user.emailVerifiedAt),
          tier: user.tier,
          createdAt: iso(user.createdAt),
          updatedAt: iso(user.updatedAt),
          twoFactor: {
            authenticatorApp: user.totpEnabledAt !== null,
            emailCodes: user.email2faEnabledAt !== null,
            required: user.require2fa,
          },
          sessionLifetimeHours: user.sessionLifetimeHours,
        },
      },
      {
        path: "sessions.json",
        description: "The devices signed in to your account: browser and system, IP address, when each session started and was last used.",
        data: sessionRows.map((row) => ({
          device: describeDevice(row.userAgent),
          userAgent: row.userAgent,
          ipAddress: row.ipAddress,
          createdAt: iso(row.createdAt),
          lastSeenAt: iso(row.lastSeenAt),
          expiresAt: iso(row.expiresAt),
          twoFactorPassed: row.verifiedAt !== null,
        })),
      },
      {
        path: "activity.json",
        description: "Your account activity: sign-ins, failed attempts, password and security changes, with IP address and browser.",
        data: eventRows.map((row) => ({
          type: row.type,
          ipAddress: row.ipAddress,
          userAgent: row.userAgent,
          detail: row.detail,
          createdAt: iso(row.createdAt),
        })),
      },
      {
        path: "mail.json",
        description: "The e-mails we sent you: kind, subject, address and date. Their contents are left out because they may hold sign-in links.",
        data: mailRows.map((row) => ({
          template: row.template,
          subject: redactCodes(row.subject),
          to: row.toAddress,
          status: row.status,
          createdAt: iso(row.createdAt),
          sentAt: iso(row.sentAt),
        })),
      },
    ];
  },

  /**
   * Deleting the users row removes sessions, tokens, recovery codes and activity by cascade
   * and unlinks recorded mails (user_id set null). Runs after every other source.
   */
  async erase(ctx, userId) {
    // Past mail records go too; the goodbye message stays until it is delivered and pruned.
    await deleteMailForUser(ctx.db, userId, ["account-deleted"]);
    await deleteUserRow(ctx.db, userId);
    return { r2Keys: [] };
  },
});
