/**
 * Every e-mail the product sends, as plain text and HTML built from the same parts. Values are
 * escaped for HTML; links are absolute URLs made by the caller. No template ever includes a
 * password or a session id; link tokens appear only in the link itself.
 */
export type MailContent = { subject: string; text: string; html: string };

export type MailTemplate =
  | { kind: "verify-email"; name: string; link: string }
  | { kind: "signup-existing-account"; name: string; loginLink: string; resetLink: string }
  | { kind: "reset-password"; name: string; link: string }

  | { kind: "email-2fa-code"; name: string; code: string; minutes: number }
  | { kind: "change-email"; name: string; link: string; newEmail: string }
  | { kind: "security-new-sign-in"; name: string; when: string; device: string; ip: string; securityLink: string }
  | { kind: "security-password-changed"; name: string; when: string; securityLink: string }
  | { kind: "security-two-factor-changed"; name: string; when: string; change: string; securityLink: string }
  | { kind: "security-email-changed"; name: string; when: string; newEmail: string }
  | { kind: "account-deleted"; name: string }
  | { kind: "dataroom-invitation"; inviterName: string; roomName: string; roleLabel: string; message: string; link: string; expiresOn: string }
  | { kind: "team-invitation"; inviterName: string; teamName: string; roleLabel: string; message: string; link: string; expiresOn: string }
  | { kind: "share-link-code"; code: string; minutes: number; targetName: string }
  | { kind: "form-email-code"; code: string; minutes: number; formTitle: string; ownerName: string }
  | { kind: "signature-request"; name: string; senderName: string; title: string; message: string; link: string; expiresOn: string | null; reminder: boolean; approve: boolean }
  | { kind: "signature-email-code"; code: string; minutes: number; title: string; senderName: string }
  | { kind: "signature-completed"; name: string; title: string; link: string; sha256: string; verifyLink: string }
  | { kind: "signature-declined"; name: string; title: string; declinedBy: string; reason: string; link: string }
  | { kind: "signature-voided"; name: string; title: string; senderName: string; reason: string }
  | { kind: "workflow-message"; subject: string; senderName: string; workflow: string; message: string; document: string | null; link: { label: string; href: string } | null }
  | { kind: "case-request"; asks: "form" | "receive"; senderName: string; caseLabel: string; form: string; message: string; link: string }
  | { kind: "trial-ending"; name: string; planLabel: string; daysLeft: number; endsOn: string; link: string }
  | { kind: "trial-ended"; name: string; planLabel: string; backTo: string; link: string }
  | { kind: "print-order"; name: string; reference: string; subject: string; message: string; link: string }
  | { kind: "notification"; name: string; title: string; excerpt: string; link: string; roomName: string | null; settingsLink: string }
  | { kind: "notification-digest"; name: string; items: { title: string; excerpt: string; link: string; roomName: string }[]; more: number; settingsLink: string };

type Block = { paragraph: string } | { button: { label: string; href: string } } | { code: string };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** An invitation into a data room or a team: the same words, only what it is into differs. */
function invitation(into: string, template: { inviterName: string; roleLabel: string; message: string; link: string; expiresOn: string }): MailContent {
  return render(`${template.inviterName} invited you to ${into}`, "Hello,", [
    // The role as it is called (a team's custom role keeps its own capitals: "KYC Reviewer").
    { paragraph: `${template.inviterName} invited you to join ${into} on Strongroom with the role “${template.roleLabel}”.` },
    ...(template.message ? [{ paragraph: `Their message: "${template.message}"` }] : []),
    { button: { label: "Open the invitation", href: template.link } },
    { paragraph: `The link works once and expires on ${template.expiresOn}. If you don't have an account yet, you can create one on the way. If you did not expect this, ignore this message.` },
  ]);
}

function render(subject: string, greeting: string, blocks: Block[]): MailContent {
  const text = [
    greeting,
    "",
    ...blocks.flatMap((block) =>
      "paragraph" in block
        ? [block.paragraph, ""]
        : "button" in block
          ? [`${block.button.label}: ${block.button.href}`, ""]
          : [block.code, ""],
    ),
    "— Strongroom",
  ].join("\n");
  const body = blocks
    .map((block) =>
      "paragraph" in block
        ? `<p style="margin:0 0 16px">${escapeHtml(block.paragraph)}</p>`
        : "button" in block
          ? `<p style="margin:0 0 16px"><a href="${escapeHtml(block.button.href)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(block.button.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:#475569">Or paste this link into your browser: ${escapeHtml(block.button.href)}</p>`
          : `<p style="margin:0 0 16px;font-size:28px;letter-spacing:6px;font-weight:700;font-family:monospace">${escapeHtml(block.code)}</p>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5;padding:24px"><p style="margin:0 0 16px">${escapeHtml(greeting)}</p>${body}<p style="margin:24px 0 0;color:#475569">— Strongroom</p></body></html>`;
  return { subject, text, html };
}

const hi = (name: string) => `Hello ${name},`;

export function renderMail(template: MailTemplate): MailContent {
  switch (template.kind) {
    case "verify-email":
      return render("Confirm your e-mail address", hi(template.name), [
        { paragraph: "Confirm your e-mail address to finish setting up your Strongroom account." },
        { button: { label: "Confirm e-mail address", href: template.link } },
        { paragraph: "The link works once and expires in 24 hours. If you did not sign up, ignore this message." },
      ]);
    case "signup-existing-account":
      return render("You already have a Strongroom account", hi(template.name), [
        { paragraph: "Someone (hopefully you) tried to create an account with this e-mail address, but one already exists." },
        { button: { label: "Sign in", href: template.loginLink } },
        { paragraph: `Forgot your password? Reset it here: ${template.resetLink}` },
        { paragraph: "If this was not you, you can ignore this message: nothing has changed." },
      ]);
    case "reset-password":
      return render("Reset your password", hi(template.name), [
        { paragraph: "We received a request to reset the password of your Strongroom account." },
        { button: { label: "Choose a new password", href: template.link } },
        { paragraph: "The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays the same." },
      ]);
    case "email-2fa-code":
      return render(`Your Strongroom sign-in code: ${template.code}`, hi(template.name), [
        { paragraph: "Use this code to finish signing in:" },
        { code: template.code },
        { paragraph: `It expires in ${template.minutes} minutes. If you did not try to sign in, change your password now.` },
      ]);
    case "change-email":
      return render("Confirm your new e-mail address", hi(template.name), [
        { paragraph: `Confirm that ${template.newEmail} should become the e-mail address of your Strongroom account.` },
        { button: { label: "Confirm new address", href: template.link } },
        { paragraph: "The link works once and expires in 24 hours. Until you confirm, your old address stays in use." },
      ]);
    case "security-new-sign-in":
      return render("New sign-in to your Strongroom account", hi(template.name), [
        { paragraph: `Your account was signed in to on ${template.when} from ${template.device} (IP address ${template.ip}).` },
        { paragraph: "If this was you, there is nothing to do. If not, change your password and end the other sessions:" },
        { button: { label: "Review your sessions", href: template.securityLink } },
      ]);
    case "security-password-changed":
      return render("Your Strongroom password was changed", hi(template.name), [
        { paragraph: `The password of your account was changed on ${template.when}.` },
        { paragraph: "If this was not you, reset your password at once and review your sessions:" },
        { button: { label: "Review your sessions", href: template.securityLink } },
      ]);
    case "security-two-factor-changed":
      return render("Two-factor authentication changed", hi(template.name), [
        { paragraph: `${template.change} on ${template.when}.` },
        { paragraph: "If this was not you, change your password and review your sessions:" },
        { button: { label: "Review your sessions", href: template.securityLink } },
      ]);
    case "security-email-changed":
      return render("Your Strongroom e-mail address was changed", hi(template.name), [
        { paragraph: `On ${template.when} the e-mail address of your account was changed to ${template.newEmail}.` },
        { paragraph: "If this was not you, contact support at once by replying to this message." },
      ]);
    case "dataroom-invitation":
      return invitation(`the data room "${template.roomName}"`, template);
    case "team-invitation":
      return invitation(`the team "${template.teamName}"`, template);
    case "share-link-code":
      return render(`${template.code} is your code to open "${template.targetName}"`, "Hello,", [
        { paragraph: `Someone, probably you, asked to open "${template.targetName}", shared with you on Strongroom. Enter this code on the page:` },
        { code: template.code },
        { paragraph: `It works for ${template.minutes} minutes. If you did not ask for it, ignore this message: nothing is opened without the code.` },
      ]);
    case "form-email-code":
      return render(`${template.code} is your code for the form "${template.formTitle}"`, "Hello,", [
        { paragraph: `Someone, probably you, is filling in "${template.formTitle}", a form by ${template.ownerName} on Strongroom, which takes one answer per e-mail address. Enter this code on the form to confirm this address is yours:` },
        { code: template.code },
        { paragraph: `It works for ${template.minutes} minutes. If you did not ask for it, ignore this message: nothing is sent in your name without the code.` },
      ]);
    case "signature-request":
      return render(`${template.reminder ? "Reminder: " : ""}${template.senderName} asks you to ${template.approve ? "approve" : "sign"} "${template.title}"`, hi(template.name), [
        { paragraph: `${template.senderName} sent you "${template.title}" to ${template.approve ? "approve" : "sign"} on Strongroom. You do not need an account.` },
        ...(template.message ? [{ paragraph: `"${template.message}"` }] : []),
        { button: { label: template.approve ? "Review and approve" : "Review and sign", href: template.link } },
        { paragraph: `${template.expiresOn ? `The link works until ${template.expiresOn}. ` : ""}It is yours alone: do not forward this e-mail.` },
      ]);
    case "signature-email-code":
      return render(`${template.code} is your code to sign "${template.title}"`, "Hello,", [
        { paragraph: `${template.senderName} asked us to confirm your e-mail address before you sign "${template.title}". Enter this code on the signing page:` },
        { code: template.code },
        { paragraph: `It works for ${template.minutes} minutes. If you did not ask for it, ignore this message.` },
      ]);
    case "signature-completed":
      return render(`"${template.title}" is signed by everyone`, hi(template.name), [
        { paragraph: `Everyone has signed "${template.title}". The signed PDF carries a certificate of completion and is sealed: any change to it breaks the seal.` },
        { button: { label: "Download the signed PDF", href: template.link } },
        { paragraph: `Its SHA-256 is ${template.sha256}. Anyone can check the file at ${template.verifyLink}.` },
      ]);
    case "signature-declined":
      return render(`${template.declinedBy} declined to sign "${template.title}"`, hi(template.name), [
        { paragraph: `${template.declinedBy} declined to sign "${template.title}", so it can no longer be signed. Their reason:` },
        { paragraph: `"${template.reason}"` },
        { button: { label: "Open the document", href: template.link } },
      ]);
    case "signature-voided":
      return render(`"${template.title}" was voided`, hi(template.name), [
        { paragraph: `${template.senderName} voided "${template.title}": the link you received no longer works and nothing more needs doing.` },
        ...(template.reason ? [{ paragraph: `"${template.reason}"` }] : []),
      ]);
    case "workflow-message":
      return render(template.subject, "Hello,", [
        { paragraph: `${template.senderName} sends you this through their workflow "${template.workflow}"${template.document ? `, about "${template.document}"` : ""}.` },
        ...(template.message ? [{ paragraph: template.message }] : []),
        ...(template.link ? [{ button: template.link }] : []),
      ]);
    case "case-request": {
      // A form to fill in, or a receive page to send files through: the same e-mail in their words.
      const words =
        template.asks === "receive"
          ? { ask: "send files through", what: "their receive page", sent: "What you send", button: "Send your files" }
          : { ask: "fill in", what: "the form", sent: "What you send, files included,", button: "Fill in the form" };
      return render(`${template.senderName} asks you to ${words.ask} "${template.form}"`, "Hello,", [
        { paragraph: `${template.senderName} asks you to ${words.ask} ${words.what} "${template.form}" for "${template.caseLabel}". ${words.sent} goes straight to that matter.` },
        ...(template.message ? [{ paragraph: template.message }] : []),
        { button: { label: words.button, href: template.link } },
        { paragraph: "The link is yours: please do not pass it on." },
      ]);
    }
    case "trial-ending":
      return render(`Your ${template.planLabel} trial ends in ${template.daysLeft} day${template.daysLeft === 1 ? "" : "s"}`, hi(template.name), [
        { paragraph: `Your free ${template.planLabel} trial of Strongroom ends on ${template.endsOn}. Choose a plan before then to keep what it gave you.` },
        { paragraph: "Nothing is deleted when it ends; from then on you add only what your plan allows." },
        { button: { label: "See the plans", href: template.link } },
      ]);
    case "trial-ended":
      return render(`Your ${template.planLabel} trial has ended`, hi(template.name), [
        { paragraph: `Your free ${template.planLabel} trial has ended and your account is on ${template.backTo} again. Nothing was deleted.` },
        { button: { label: "Choose a plan", href: template.link } },
      ]);
    case "print-order":
      return render(`${template.subject} (order ${template.reference})`, hi(template.name), [
        { paragraph: template.message },
        { button: { label: "See your order", href: template.link } },
      ]);
    case "notification":
      return render(template.title, hi(template.name), [
        { paragraph: template.roomName ? `${template.title} in the data room "${template.roomName}".` : `${template.title}.` },
        ...(template.excerpt ? [{ paragraph: `"${template.excerpt}"` }] : []),
        { button: { label: "Open in Strongroom", href: template.link } },
        { paragraph: `You get these e-mails as they happen. Choose a daily digest or none at all: ${template.settingsLink}` },
      ]);
    case "notification-digest": {
      const count = template.items.length + template.more;
      return render(`Your daily Strongroom digest: ${count} ${count === 1 ? "notification" : "notifications"}`, hi(template.name), [
        { paragraph: `Here is what happened in your data rooms since the last digest.` },
        ...template.items.flatMap((item) => [
          { paragraph: `${item.roomName}: ${item.title}${item.excerpt ? ` — "${item.excerpt}"` : ""}` },
          { button: { label: "Open", href: item.link } },
        ]),
        ...(template.more > 0 ? [{ paragraph: `And ${template.more} more in your notifications.` }] : []),
        { paragraph: `You get one digest a day. Choose e-mails as they happen or none at all: ${template.settingsLink}` },
      ]);
    }
    case "account-deleted":
      return render("Your Strongroom account was deleted", hi(template.name), [
        { paragraph: "Your account and the data it owned have been deleted, as you asked. Files are removed from storage within minutes." },
        { paragraph: "Thank you for using Strongroom." },
      ]);
  }
}
