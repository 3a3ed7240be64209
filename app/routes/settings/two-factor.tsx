import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName, type ButtonVariant } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { revokeOtherSessions } from "~/features/auth/account.server";
import { sessionsSignedOutMessage } from "~/features/auth/activity-labels";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { fieldError, FormError } from "~/features/auth/components/auth-layout";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import {
  beginTotpSetup,
  disableTotp,
  enableTotp,
  regenerateRecoveryCodes,
  resumeTotpSetup,
  setEmailTwoFactor,
  twoFactorStatus,
  type TotpSetup,
} from "~/features/auth/two-factor.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember, requireRecentAuth } from "~/features/auth/auth-guard.server";
import { AppError } from "~/lib/errors";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => titleMeta("Two-Factor Authentication");

const PAGE = "/settings/2fa";

export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireRecentAuth(context, request);
  return { status: await twoFactorStatus(authCallFor(context, request), member) };
}

/** What a successful change returns: a message, and recovery codes when there are new ones (shown once). */
type Changed = { ok: true; intent: string; message: string; recoveryCodes?: string[]; setup?: undefined };
type SetupStarted = { ok: true; intent: "begin"; setup: TotpSetup };

export async function action({ context, request }: Route.ActionArgs) {
  const signedIn = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const call = authCallFor(context, request);
  if (intent === "end-others") {
    const ended = await revokeOtherSessions(call, signedIn);
    return redirectWithNotice(context, PAGE, { type: "success", message: sessionsSignedOutMessage(ended) });
  }
  const member = requireRecentAuth(context, request);
  const changed = (message: string, recoveryCodes?: string[]): Changed => ({ ok: true, intent, message, recoveryCodes });

  if (intent === "enable") {
    const sealedKey = form.get("sealedKey");
    const result = await runFormAction(() => enableTotp(call, member, { sealedKey, code: form.get("code") }), { intent });
    if ("recoveryCodes" in result) return changed("Authenticator app turned on.", result.recoveryCodes);
    // A mistyped code keeps the same QR code: the app already holds this key.
    return data({ ...result.data, setup: await resumeTotpSetup(call, member, sealedKey) }, result.init ?? undefined);
  }

  return runFormAction(
    async (): Promise<Changed | SetupStarted> => {
      switch (intent) {
        case "begin":
          return { ok: true, intent: "begin", setup: await beginTotpSetup(call, member) };
        case "disable-totp":
          await disableTotp(call, member);
          return changed("Authenticator app turned off. Its recovery codes no longer work.");
        case "regenerate-codes": {
          const { recoveryCodes } = await regenerateRecoveryCodes(call, member);
          return changed("New recovery codes generated. The old ones no longer work.", recoveryCodes);
        }
        case "email-on":
          await setEmailTwoFactor(call, member, true);
          return changed("E-mail codes turned on.");
        case "email-off":
          await setEmailTwoFactor(call, member, false);
          return changed("E-mail codes turned off.");
        default:
          throw new AppError("VALIDATION_ERROR", "Choose what to change.");
      }
    },
    { intent },
  );
}

function StatusBadge({ isOn, testId }: { isOn: boolean; testId: string }) {
  return (
    <Badge variant={isOn ? "success" : "neutral"} data-testid={testId}>
      {isOn ? "On" : "Off"}
    </Badge>
  );
}

/** Shown once, right after they are made: the server keeps only their hashes. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`Strongroom recovery codes\n\n${codes.join("\n")}\n`)}`;
  return (
    <section aria-labelledby="recovery-codes-heading" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="recovery-codes-heading" className="text-base font-semibold text-slate-900">
        Your recovery codes
      </h2>
      <p className="text-sm text-slate-800">
        Store these somewhere safe, like a password manager. Each code signs you in once if you lose your phone. We won't show
        them again.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code}>
            <code className="rounded bg-white px-2 py-1 ring-1 ring-amber-200">{code}</code>
          </li>
        ))}
      </ul>
      <a href={download} download="strongroom-recovery-codes.txt" className={buttonClassName({ variant: "secondary", size: "sm" })}>
        Download codes
      </a>
    </section>
  );
}

/** After any change to how the member signs in, ending the other sessions is one click away. */
function ChangedAlert({ message }: { message: string }) {
  return (
    <Alert variant="success" title={message}>
      <div data-testid="two-factor-changed" className="space-y-2">
        <p>If you think someone else may be signed in to your account, sign them out now.</p>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="end-others" />
          <Button type="submit" variant="secondary" size="sm">
            Sign out of all other sessions
          </Button>
        </Form>
      </div>
    </Alert>
  );
}

/** A one-button form that posts its intent. */
function IntentButton({
  intent,
  children,
  variant = "primary",
  isBusy,
}: {
  intent: string;
  children: string;
  variant?: ButtonVariant;
  isBusy: boolean;
}) {
  return (
    <Form method="post">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={variant} isLoading={isBusy}>
        {children}
      </Button>
    </Form>
  );
}

export default function TwoFactorPage({ loaderData }: Route.ComponentProps) {
  const { status } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const failure = actionData?.ok === false ? actionData : null;
  const success = actionData?.ok === true ? actionData : null;
  const setup = !status.totpEnabled && actionData && "setup" in actionData ? (actionData.setup ?? null) : null;
  const changedMessage = success && "message" in success ? success.message : null;
  const recoveryCodes = success && "recoveryCodes" in success ? success.recoveryCodes : undefined;
  const failureFor = (...intents: string[]) => (failure && intents.includes(failure.intent ?? "") ? failure : null);
  const appFailure = failureFor("begin", "enable", "disable-totp", "regenerate-codes");
  const emailFailure = failureFor("email-on", "email-off");

  return (
    <>
      <SettingsHeader
        title="Two-factor authentication"
        description="A second step when you sign in: a code from an authenticator app or from an e-mail."
      />
      {status.require2fa ? (
        <Alert variant="info">Your security level requires two-factor authentication, so at least one method must stay on.</Alert>
      ) : null}
      {changedMessage ? <ChangedAlert message={changedMessage} /> : null}
      {recoveryCodes && recoveryCodes.length > 0 ? <RecoveryCodes codes={recoveryCodes} /> : null}

      <Card>
        <CardHeader>
          <div className="flex items-center gap-3">
            <CardTitle as="h2">Authenticator app</CardTitle>
            <StatusBadge isOn={status.totpEnabled} testId="totp-status" />
          </div>
          <CardDescription>Codes from an app such as 1Password, Google Authenticator or Aegis, even offline.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <FormError message={appFailure?.message} />
          {status.totpEnabled ? (
            <>
              <p>
                Recovery codes left: <span data-testid="recovery-codes-left">{status.recoveryCodesLeft}</span>
              </p>
              <div className="flex flex-wrap gap-3">
                <IntentButton intent="regenerate-codes" variant="secondary" isBusy={busyIntent === "regenerate-codes"}>
                  Generate new recovery codes
                </IntentButton>
                <IntentButton intent="disable-totp" variant="danger" isBusy={busyIntent === "disable-totp"}>
                  Turn off authenticator app
                </IntentButton>
              </div>
            </>
          ) : setup ? (
            <div className="space-y-4">
              <ol className="list-decimal space-y-4 pl-5">
                <li>
                  <p>Scan this QR code with your authenticator app.</p>
                  <figure
                    role="img"
                    aria-label="QR code for your authenticator app"
                    data-testid="totp-qr"
                    className="mt-2 w-48 rounded bg-white p-2 ring-1 ring-slate-200"
                    // Trusted markup: generated on the server by qrcode-generator from our own key URI.
                    dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                  />
                </li>
                <li>
                  <p id="totp-manual-key-label">Key for manual entry</p>
                  <p className="mt-1 text-slate-600">If you can't scan the code, type this key into the app instead.</p>
                  <code
                    aria-labelledby="totp-manual-key-label"
                    data-testid="totp-manual-key"
                    className="mt-2 inline-block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
                  >
                    {setup.manualKey}
                  </code>
                </li>
                <li>
                  <Form method="post" className="max-w-xs space-y-3" noValidate>
                    <CsrfInput />
                    <input type="hidden" name="intent" value="enable" />
                    <input type="hidden" name="sealedKey" value={setup.sealedKey} />
                    <Input
                      label="Code from the app"
                      name="code"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      required
                      error={fieldError(failureFor("enable")?.fieldErrors, "code")}
                    />
                    <div className="flex flex-wrap items-center gap-3">
                      <Button type="submit" isLoading={busyIntent === "enable"}>
                        Turn on authenticator app
                      </Button>
                      <Link to={PAGE} className="text-sm text-brand-700 underline">
                        Cancel setup
                      </Link>
                    </div>
                  </Form>
                </li>
              </ol>
            </div>
          ) : (
            <IntentButton intent="begin" isBusy={busyIntent === "begin"}>
              Set up authenticator app
            </IntentButton>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <div className="flex items-center gap-3">
            <CardTitle as="h2">E-mail codes</CardTitle>
            <StatusBadge isOn={status.email2faEnabled} testId="email-2fa-status" />
          </div>
          <CardDescription>A six-digit code sent to your e-mail address each time you sign in.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <FormError message={emailFailure?.message} />
          {status.email2faEnabled ? (
            <IntentButton intent="email-off" variant="danger" isBusy={busyIntent === "email-off"}>
              Turn off e-mail codes
            </IntentButton>
          ) : (
            <IntentButton intent="email-on" isBusy={busyIntent === "email-on"}>
              Turn on e-mail codes
            </IntentButton>
          )}
        </CardContent>
      </Card>
    </>
  );
}
