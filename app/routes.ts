import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // Pages anyone may open, in the light public frame (G5, G13).
  layout("routes/public-layout.tsx", [
    index("routes/home.tsx"),
    route("privacy-policy", "routes/privacy-policy.tsx"),
    route("ui", "routes/ui.tsx"),

    // Accounts (spec §2 "Auth" pages). POST /logout and the JSON endpoints live in workers/auth.ts.
    route("login", "routes/auth/login.tsx"),
    route("register", "routes/auth/register.tsx"),
    route("forgot-password", "routes/auth/forgot-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("confirm-password", "routes/auth/confirm-password.tsx"),
    route("2fa/verify", "routes/auth/two-factor-verify.tsx"),
    route("verify-email", "routes/auth/verify-email.tsx"),
    route("auth/error", "routes/auth/error.tsx"),
    route("auth/success", "routes/auth/success.tsx"),
    // Outside the workspace: the link may be opened signed out, on another device.
    route("settings/account/confirm-email", "routes/settings/account-confirm-email.tsx"),

    // The link of a data-room invitation: opened signed out or in, by someone who may have no account yet.
    route("invite/:token", "routes/invitations/invite.tsx"),
    // A room's two-factor step: the room's header is not shown before its gate is passed.
    route("dataroom/:id/two-factor", "routes/datarooms/two-factor.tsx"),

    // What visitors open from a link: a receive page, a secret, a secret request, a share link.
    route("r/:address", "routes/receive/public.tsx"),
    route("secret/:token", "routes/secrets/view.tsx"),
    route("secret-request/:token", "routes/secrets/answer.tsx"),
    route("s/:key", "routes/share/viewer.tsx"),
    route("s/:key/files/:fileId", "routes/share/viewer.tsx", { id: "share-file" }),
    // A public gallery (issue 40, spec §2 "Public gallery, simple public gallery"): a share link shown as a gallery.
    route("public-gallery/:key", "routes/galleries/public.tsx"),
    route("public-gallery/:key/simple", "routes/galleries/public.tsx", { id: "public-gallery-simple" }),
    // Prints for a public gallery's visitor (issue 43) and their order's page (its token in the address).
    route("public-gallery/:key/prints", "routes/prints/visitor-form.tsx"),
    route("prints/:id", "routes/prints/visitor-order.tsx"),
    // A published form (issue 37, spec §2 "public form view"): anyone with the address.
    route("forms/:id/view", "routes/forms/view.tsx"),
    // E-signatures (issue 38): a recipient's signing link, and the verify page anyone may use.
    route("sign/:token", "routes/sign/sign.tsx"),
    route("signatures/verify", "routes/signatures/verify.tsx"),
    // One submission shared by its form's owner (spec §2 "shared submission view").
    route("submissions/shared/:token", "routes/submissions/shared.tsx"),

    // For visitors deciding whether to sign up (spec §2 "Showcase"): what the product does, live.
    route("showcase", "routes/showcase.tsx"),

    // Development only: the mail outbox.
    route("dev/mail", "routes/dev/mail.tsx"),
    // The local payments driver's hosted pages (PAYMENTS_DRIVER=local; 404 with Stripe): checkout and the customer portal.
    route("dev/payments/checkout/:id", "routes/dev/payments/checkout.tsx"),
    route("dev/payments/portal/:id", "routes/dev/payments/portal.tsx"),
    route("dev/lab", "routes/dev/lab.tsx"),

    // Anything else is a helpful 404 page (with its title), not a bare error.
    route("*", "routes/not-found.tsx"),
  ]),

  // Resource routes (no frame).
  // A shared submission inside a frame on the form owner's site (spec §2 "Embedded submission view").
  route("submissions/embed/:token", "routes/submissions/embed.tsx"),
  route("profile/data/export", "routes/profile/data-export.ts"),
  route("r/:address/logo", "routes/receive/logo.ts"),
  route("dev/payments/invoices/:id/pdf", "routes/dev/payments/invoice-pdf.ts"),

  // The signed-in member's workspace (issue 36): sidebar, drawer and top bar around every page.
  layout("routes/workspace/layout.tsx", [
    // The signed-in home (spec §2 "Dashboard homepage and dashboard"); / sends members here.
    route("dashboard", "routes/dashboard.tsx"),
    // Welcome, what's new and help (spec §2): the first-run checklist, release notes, articles.
    route("welcome", "routes/guide/welcome.tsx"),
    route("whats-new", "routes/guide/whats-new.tsx"),
    // The free trial (issue 43, spec §2 "Trial"): the one a member may start, is running or had.
    route("trial", "routes/billing/trial.tsx"),
    // Stripe's return from checkout (spec §2 "Checkout success and failure").
    route("checkout/success", "routes/checkout/success.tsx"),
    route("checkout/failure", "routes/checkout/failure.tsx"),
    // Referrals (spec §2 "Referrals"): the member's link, what it brought, credits.
    route("referrals", "routes/referrals/index.tsx"),
    route("help", "routes/guide/help.tsx"),
    route("help/:slug", "routes/guide/help-article.tsx"),
    // Search across every module (issue 36): names, contents, filters; the shell's box and Ctrl/⌘-K lead here.
    route("search", "routes/search.tsx"),
    // An invitation to a data room opened from the invitee's dashboard (the e-mail's link is /invite/{token}).
    route("invitations/:id", "routes/invitations/own.tsx"),
    // Teams (issue 42, spec §2 "Team: index, show"): the member's teams and a new one, one team's people, seats, invitations and activity; its custom roles.
    route("team", "routes/teams/index.tsx"),
    route("team/:id", "routes/teams/team.tsx"),
    route("team/:id/roles", "routes/teams/roles.tsx"),
    // Workflows (issue 41): the member's open tasks and a run's page (any member with a task in it; not under the Business-only /workflows).
    route("tasks", "routes/workflows/tasks.tsx"),
    // The builder's pages (spec §2 "workflows (create, index)"), permission-critical (Business; app/features/access/critical-routes.ts).
    route("workflows", "routes/workflows/index.tsx"),
    route("workflows/create", "routes/workflows/create.tsx"),
    route("workflows/start", "routes/workflows/start.tsx"),
    route("workflows/:id", "routes/workflows/workflow.tsx"),
    // Cases (issue 41), permission-critical like /workflows.
    route("cases", "routes/cases/index.tsx"),
    route("cases/types", "routes/cases/types.tsx"),
    route("cases/new", "routes/cases/new.tsx"),
    route("cases/:id", "routes/cases/case.tsx"),
    route("workflow-runs/:id", "routes/workflows/run.tsx"),

    // Settings (spec §2 "Settings") and profile pages share one frame (side navigation).
    layout("routes/settings/layout.tsx", [
      route("settings", "routes/settings/index.tsx"),
      route("settings/account", "routes/settings/account.tsx"),
      route("settings/plan", "routes/settings/plan.tsx"),
      route("settings/subscription", "routes/settings/subscription.tsx"),
      route("settings/invoices", "routes/settings/invoices.tsx"),
      route("settings/2fa", "routes/settings/two-factor.tsx"),
      route("settings/security", "routes/settings/security.tsx"),
      route("settings/security-level", "routes/settings/security-level.tsx"),
      route("settings/storage", "routes/settings/storage.tsx"),
      route("settings/receive-page-forms", "routes/settings/receive-page-forms.tsx"),
      route("settings/dashboard", "routes/settings/dashboard.tsx"),
      route("profile", "routes/profile/edit.tsx"),
      route("profile/activity", "routes/profile/activity.tsx"),
      route("profile/data", "routes/profile/data.tsx"),
    ]),

    // Files and folders (spec §2 "Folders", trash, favorites, document templates).
    route("folders", "routes/folders/all.tsx"),
    route("folders/new", "routes/folders/new.tsx"),
    route("folders/inbox", "routes/folders/default-inbox.tsx", { id: "folders-default-inbox" }),
    route("folders/outbox", "routes/folders/default-outbox.tsx", { id: "folders-default-outbox" }),
    route("folders/global-inbox", "routes/folders/global-inbox.tsx"),
    route("folders/global-outbox", "routes/folders/global-outbox.tsx"),
    route("folders/:uid", "routes/folders/folder.tsx"),
    route("folders/:uid/gallery", "routes/folders/gallery.tsx"),
    // Prints of a gallery's pictures (issue 43, spec §2 "Print order created and error").
    route("folders/:uid/prints", "routes/prints/order.tsx"),
    route("print-orders", "routes/prints/list.tsx"),
    route("print-orders/error", "routes/prints/error.tsx"),
    route("print-orders/:id", "routes/prints/created.tsx"),
    route("files/recent", "routes/files/recent.tsx"),
    route("files/duplicates", "routes/files/duplicates.tsx"),
    route("files/tags", "routes/files/tags.tsx"),
    route("files/:id", "routes/files/file.tsx"),
    route("files/:id/redact", "routes/files/redact.tsx"),
    route("favorites", "routes/files/favorites.tsx"),
    route("templates", "routes/files/templates.tsx"),
    route("trash", "routes/files/trash.tsx"),
    route("notifications", "routes/notifications.tsx"),

    // Data rooms (spec §2 "Data room"). /dataroom/ pages are loaded as whole documents (spec: the
    // client router skips them); /datarooms is permission-critical (app/features/access/critical-routes.ts).
    route("datarooms", "routes/datarooms/index.tsx"),
    route("datarooms/archived", "routes/datarooms/archived.tsx"),
    // One room's pages under its header: name, role, breadcrumbs and tabs (routes/datarooms/room-layout.tsx).
    layout("routes/datarooms/room-layout.tsx", [
      route("dataroom/:id", "routes/datarooms/room.tsx"),
      route("dataroom/:id/folders/:uid", "routes/datarooms/room.tsx", { id: "dataroom-folder" }),
      route("dataroom/:id/profile", "routes/datarooms/profile.tsx"),
      route("dataroom/:id/users", "routes/datarooms/users.tsx"),
      route("dataroom/:id/permissions", "routes/datarooms/permissions.tsx"),
      route("dataroom/:id/activities", "routes/datarooms/activities.tsx"),
      route("dataroom/:id/analytics", "routes/datarooms/analytics.tsx"),
      route("dataroom/:id/security", "routes/datarooms/security.tsx"),
      route("dataroom/:id/sessions", "routes/datarooms/sessions.tsx"),
      route("dataroom/:id/settings", "routes/datarooms/settings.tsx"),
      route("dataroom/:id/recent-uploads", "routes/datarooms/recent-uploads.tsx"),
      route("dataroom/:id/tags", "routes/datarooms/tags.tsx"),
      route("dataroom/:id/duplicates", "routes/datarooms/duplicates.tsx"),
      route("dataroom/:id/metadata", "routes/datarooms/metadata.tsx"),
      route("dataroom/:id/comments", "routes/datarooms/comments.tsx"),
      route("dataroom/:id/collaboration", "routes/datarooms/collaboration.tsx"),
      route("dataroom/:id/notifications", "routes/datarooms/notifications.tsx"),
      route("dataroom/:id/sharing", "routes/datarooms/sharing.tsx"),
      // The room's envelopes and sending from its PDFs (issue 38, spec §2 "signatures create and index").
      route("dataroom/:id/signatures", "routes/signatures/index.tsx", { id: "room-signatures" }),
      route("dataroom/:id/signatures/create", "routes/signatures/create.tsx", { id: "room-signatures-create" }),
      // The room's workflows, for those who manage it (issue 41).
      route("dataroom/:id/workflows", "routes/workflows/index.tsx", { id: "room-workflows" }),
    ]),

    // Receive pages (issue 24, spec §2 "Receive pages: index, upload form"): the member's pages.
    route("receive-pages", "routes/receive/index.tsx"),
    route("receive-pages/new", "routes/receive/new.tsx"),
    route("receive-pages/:id", "routes/receive/page.tsx"),

    // One-time secrets (issue 23, spec §2 "Secrets: create, edit, view shared"): the member's list,
    // a new one (sealed in the browser), one secret's receipt and changes.
    route("secrets", "routes/secrets/index.tsx"),
    route("secrets/new", "routes/secrets/new.tsx"),
    route("secrets/requests/new", "routes/secrets/request-new.tsx"),
    route("secrets/requests/:id", "routes/secrets/request.tsx"),
    route("secrets/:id", "routes/secrets/secret.tsx"),

    // Forms (issue 37, spec §2 "Forms: builder, preview, index"): the list, a new one, the builder,
    // the preview in test mode, the submissions.
    route("forms", "routes/forms/index.tsx"),
    route("forms/create", "routes/forms/create.tsx"),
    route("forms/:id/edit", "routes/forms/edit.tsx"),
    route("forms/:id/preview", "routes/forms/preview.tsx"),
    route("forms/:id/dashboard", "routes/forms/dashboard.tsx"),
    route("forms/:id/webhooks", "routes/forms/webhooks.tsx"),
    route("forms/:id/map-fields", "routes/forms/map-fields.tsx"),
    route("forms/:id/submissions", "routes/forms/submissions.tsx"),
    route("forms/:id/submissions/:submissionId", "routes/forms/submission.tsx"),

    // E-signatures (issue 38, spec §2 "Signatures: show, create, document list").
    route("signatures", "routes/signatures/index.tsx"),
    route("signatures/create", "routes/signatures/create.tsx"),
    route("signatures/templates", "routes/signatures/templates.tsx"),
    route("signatures/templates/:id", "routes/signatures/template.tsx"),
    route("signatures/:id", "routes/signatures/envelope.tsx"),
    route("signatures/:id/edit", "routes/signatures/edit.tsx"),

    // Managing share links (spec §2 "Share: create share link"): the list, a new one, one link's page.
    route("share-links", "routes/share/index.tsx"),
    route("share-links/new", "routes/share/new.tsx"),
    route("share-links/:id", "routes/share/link.tsx"),
  ]),
] satisfies RouteConfig;
